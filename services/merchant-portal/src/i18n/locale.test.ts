import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { localeOf } from './locale.js';

describe('localeOf', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const app = express();
    app.get('/', (req, res) => {
      res.send(localeOf(req));
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const ask = (headers: Record<string, string>) => fetch(url, { headers }).then((r) => r.text());

  it('takes the choice remembered in the cookie first', async () => {
    expect(await ask({ cookie: 'other=1; mm_lang=en', 'accept-language': 'fr-FR,fr;q=0.9' })).toBe('en');
  });

  it("else the browser's preference among French and English", async () => {
    expect(await ask({ 'accept-language': 'en-GB,en;q=0.9,fr;q=0.5' })).toBe('en');
    expect(await ask({ 'accept-language': 'de-DE,fr;q=0.7,en;q=0.5' })).toBe('fr');
  });

  it('else French, and an unknown cookie value is ignored', async () => {
    expect(await ask({})).toBe('fr');
    expect(await ask({ cookie: 'mm_lang=de' })).toBe('fr');
  });
});
