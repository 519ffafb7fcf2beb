import type { AddressInfo } from 'node:net';
import { signPayload } from '@mm/domain';
import { createInboxApp } from './inbox-app.js';

describe('demo webhook inbox', () => {
  it('accepts a correctly signed webhook and rejects a tampered one with 401', async () => {
    const { app, entries } = createInboxApp('sk_test');
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    const ts = String(Math.floor(Date.now() / 1000));
    const body = JSON.stringify({ event: 'transaction.status_changed', status: 'SUCCESS' });
    const ok = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'x-service-timestamp': ts, 'x-service-signature': signPayload('sk_test', ts, body) },
    });
    const bad = await fetch(url, {
      method: 'POST',
      body: body.replace('SUCCESS', 'FAILED'),
      headers: { 'x-service-timestamp': ts, 'x-service-signature': signPayload('sk_test', ts, body) },
    });
    server.close();
    expect([ok.status, bad.status]).toEqual([200, 401]);
    expect(entries.map((e) => e.signature_valid)).toEqual([false, true]);
  });
});
