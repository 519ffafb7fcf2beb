/** Sandbox sign-up over HTTP: a merchant, its owner and first key in one go, the secret shown once; off in live. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@mm/observability';
import { errorHandler } from '../http/error-handler.js';
import { signUpRouter } from './sign-up.js';
import { startPortalFixture, type PortalFixture } from '../test-support/portal-fixture.js';

const EN = { 'accept-language': 'en' };
const PASSWORD = 'sandbox password 123';

describe('merchant portal: sandbox sign-up', () => {
  let portal: PortalFixture;
  beforeAll(async () => {
    portal = await startPortalFixture({ DEPLOYMENT_MODE: 'sandbox' });
  });
  afterAll(() => portal.stop());

  const form = (over: Record<string, string> = {}) => ({
    email: 'Founder@Startup.Test',
    business: 'Startup Awa',
    country: 'SN',
    name: 'Awa Ndiaye',
    password: PASSWORD,
    confirm: PASSWORD,
    ...over,
  });

  it('creates the merchant, its owner and its first key, signs the owner in and shows the secret once', async () => {
    const client = portal.client(EN);
    const page = await client.get('/signup');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<option value="SN">Sénégal</option>');
    const done = await client.post('/signup', form());
    expect(done.status).toBe(201);
    expect(done.headers.get('cache-control')).toBe('no-store');
    const apiKey = /<code id="api-key">([^<]+)<\/code>/.exec(done.text)?.[1];
    expect(/<code id="api-secret">[^<]{20,}<\/code>/.test(done.text)).toBe(true);
    const owner = await portal.db.merchantUser.findUniqueOrThrow({
      where: { email: 'founder@startup.test' },
      include: { merchant: { include: { apiKeys: true } } },
    });
    expect(owner).toMatchObject({ role: 'owner', name: 'Awa Ndiaye', merchant: { name: 'Startup Awa' } });
    expect(owner.merchant.apiKeys.map((k) => k.apiKey)).toEqual([apiKey]);
    expect((await client.get('/team')).text).toContain(`data-member-id="${owner.id}"`);
    const actions = await portal.db.auditEntry.findMany({ where: { targetId: owner.merchantId } });
    expect(actions.map((a) => a.action).sort()).toEqual(['merchant.create', 'portal.sign_up']);
  });

  it('refuses a taken email, a closed country and a short password, creating nothing', async () => {
    const merchants = await portal.db.merchant.count();
    const client = portal.client(EN);
    await client.get('/signup');
    const taken = await client.post('/signup', form({ business: 'Second' }));
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('This address already has an account');
    const country = await client.post('/signup', form({ email: 'x@startup.test', country: 'FR' }));
    expect(country.status).toBe(400);
    expect(country.text).toContain('Choose one of the countries.');
    const short = await client.post('/signup', form({ email: 'y@startup.test', password: 'short', confirm: 'short' }));
    expect(short.status).toBe(400);
    expect(short.text).toContain('value="Startup Awa"');
    expect(await portal.db.merchant.count()).toBe(merchants);
  });
});

// A live portal does not start on a test database holding the simulator's accounts: the router alone.
describe('merchant portal: sign-up in a live deployment', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const app = express();
    app.use(signUpRouter({ db: null as never, box: null as never, deploymentMode: 'live', now: Date.now }));
    app.use(errorHandler(createLogger('sign-up-test', 'silent')));
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 404 before reading anything (no database at all here)', async () => {
    expect((await fetch(`${url}/signup`)).status).toBe(404);
    expect((await fetch(`${url}/signup`, { method: 'POST' })).status).toBe(404);
  });
});
