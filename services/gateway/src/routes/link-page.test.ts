import type { Server } from 'node:http';
import express from 'express';
import type { InitiateCashinDeps } from '@mm/collections';
import { createDb, type Db } from '@mm/db';
import { createLogger, listen } from '@mm/observability';
import type { LinkSubmitLimit } from '../payment-links/link-submit-limit.js';
import { linkPageRouter } from './link-page.js';

/**
 * The link's page when what is behind it fails: PostgreSQL unreachable answers the customer a page in
 * their language (503, Retry-After), never a stack nor the API's JSON, and the outage is told as the
 * API's errors tell it.
 */
describe('link page: the database gone', () => {
  let db: Db;
  let server: Server;
  let url: string;
  const seen: unknown[] = [];

  beforeAll(async () => {
    // Nothing listens on port 1: every query fails to connect.
    db = createDb({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/nowhere', poolSize: 1 });
    const app = express();
    app.use(
      linkPageRouter({
        cashins: { db } as unknown as InitiateCashinDeps,
        limit: { consume: async () => null } as unknown as LinkSubmitLimit,
        publicBaseUrl: 'http://pay.example.test',
        now: Date.now,
        errors: {
          logger: createLogger('test', 'silent'),
          unavailableRetryAfterS: 7,
          onDatabaseUnavailable: (err) => seen.push(err),
        },
      }),
    );
    ({ server } = await listen(app, 0, '127.0.0.1'));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await db.$disconnect();
  });

  it.each([
    ['fr', 'Le paiement ne peut pas être lancé pour le moment.'],
    ['en', 'The payment cannot be started right now.'],
  ])('GET answers 503 with a page in %s, Retry-After and the page headers', async (lang, text) => {
    const res = await fetch(`${url}/l/AAAAAAAAAAAAAAAAAAAAAA`, { headers: { 'Accept-Language': lang } });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain(`<html lang="${lang}">`);
    expect(html).toContain(text);
    expect(html).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    expect(seen.length).toBeGreaterThan(0);
  });

  it('a submission answers the same page', async () => {
    const res = await fetch(`${url}/l/AAAAAAAAAAAAAAAAAAAAAA`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
      body: 'msisdn=0707000001',
    });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('id="link-failed"');
  });

  it.each(['/l/%E0%A4%A', '/l/%zz/qr.png'])(
    '%s, which does not percent-decode, answers the page for no such link',
    async (path) => {
      const res = await fetch(`${url}${path}`, { headers: { 'Accept-Language': 'en' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await res.text()).toContain('Payment link not found');
    },
  );
});
