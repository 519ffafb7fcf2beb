import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@mm/observability';
import { errorHandler } from '../http/error-handler.js';
import { apiReferenceRouter } from './api-reference.js';

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = 'req-1';
    next();
  });
  app.use('/api/v1', apiReferenceRouter());
  app.use(errorHandler(createLogger('test', 'silent')));
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the API reference routes (public)', () => {
  it('serves the document as JSON and the page with a CSP that allows no inline script', async () => {
    const doc = await fetch(`${base}/openapi.json`);
    expect(doc.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
    const page = await fetch(`${base}/docs`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(await page.text()).not.toMatch(/<script>[^<]/);
  });

  it('serves the three Swagger UI files it names, with their types', async () => {
    for (const [file, type] of [
      ['swagger-ui.css', 'text/css'],
      ['swagger-ui-bundle.js', 'text/javascript'],
      ['favicon-32x32.png', 'image/png'],
    ]) {
      const res = await fetch(`${base}/docs/assets/${file}`);
      expect({ file, status: res.status, type: res.headers.get('content-type') }).toEqual({
        file,
        status: 200,
        type: expect.stringContaining(type!),
      });
    }
  });

  it('answers 404 NOT_FOUND to any other name, including names every object has and paths that climb out', async () => {
    for (const name of [
      'constructor',
      '__proto__',
      'toString',
      'index.html',
      'package.json',
      '..%2Fpackage.json',
      '%2e%2e%2f%2e%2e%2fpackage.json',
    ]) {
      const res = await fetch(`${base}/docs/assets/${name}`);
      expect({
        name,
        status: res.status,
        code: ((await res.json()) as { error: { code: string } }).error.code,
      }).toEqual({ name, status: 404, code: 'NOT_FOUND' });
    }
  });
});
