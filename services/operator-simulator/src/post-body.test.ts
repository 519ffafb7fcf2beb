import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { startReceiver, type Receiver } from '@mm/testing';
import { postBody } from './post-body.js';

describe("postBody (the simulator callbacks' HTTP client)", () => {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  let r: Receiver | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });
  afterAll(() => {
    agents.http.destroy();
    agents.https.destroy();
  });
  const options = (o: { timeoutMs?: number; signal?: AbortSignal } = {}) => ({
    headers: { 'Content-Type': 'application/json', 'X-Operator-Signature': 'sig' },
    timeoutMs: o.timeoutMs ?? 2_000,
    signal: o.signal ?? new AbortController().signal,
    agents,
  });

  it('sends the bytes and headers as given and resolves with the status, any status', async () => {
    r = await startReceiver((n) => (n === 0 ? 202 : 503));
    const body = '{"b": 1,  "a":"é"}';
    expect(await postBody(r.url, body, options())).toBe(202);
    expect(await postBody(r.url, body, options())).toBe(503);
    expect(r.requests[0]!.body).toBe(body);
    expect(r.requests[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-operator-signature': 'sig',
      'content-length': String(Buffer.byteLength(body)),
    });
    // The answers were read to the end: both went over one kept-alive connection.
    expect(r.connections).toBe(1);
  });

  it('rejects when the answer does not come within its time, or the send is aborted', async () => {
    r = await startReceiver(() => 'hang');
    await expect(postBody(r.url, '{}', options({ timeoutMs: 200 }))).rejects.toThrow('timeout of 200ms exceeded');
    const controller = new AbortController();
    const aborted = postBody(r.url, '{}', options({ signal: controller.signal }));
    controller.abort();
    await expect(aborted).rejects.toThrow(/abort/i);
  });

  it('rejects when nothing listens', async () => {
    r = await startReceiver();
    const url = r.url;
    await r.close();
    r = undefined;
    await expect(postBody(url, '{}', options())).rejects.toThrow(/ECONNREFUSED/);
  });
});
