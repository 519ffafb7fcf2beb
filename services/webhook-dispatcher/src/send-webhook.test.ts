import { signatureMatches } from '@mm/domain';
import { WebhookConnections } from './connections.js';
import { sendWebhook } from './send-webhook.js';
import { startReceiver, type Receiver } from '@mm/testing';

describe('sending one webhook request', () => {
  let r: Receiver;
  const connections = new WebhookConnections({ maxSocketsPerTarget: 4 });
  beforeAll(async () => {
    r = await startReceiver();
  });
  afterAll(async () => {
    connections.close();
    await r.close();
  });

  const port = () => new URL(r.url).port;
  const request = (url: string) => ({
    url: new URL(url),
    connectTo: { address: '127.0.0.1', family: 4 as const },
    body: '{"event":"transaction.status_changed"}',
    secret: 'sk_test',
    eventId: 'evt-1',
    timeoutMs: 2000,
    connections,
  });

  it('connects to the address the guard checked, whatever the name resolves to now (DNS rebinding)', async () => {
    r.requests.length = 0;
    r.reply = () => 204;
    // .invalid never resolves: reaching the receiver proves the pinned address was used.
    const result = await sendWebhook(request(`http://hooks.invalid:${port()}/x`));
    expect(result).toEqual({
      statusCode: 204,
      latencyMs: expect.any(Number),
      error: null,
      errorDetail: null,
      success: true,
    });
    expect(r.requests).toHaveLength(1);
    const [req] = r.requests;
    expect(req!.headers.host).toBe(`hooks.invalid:${port()}`);
    expect(req!.body).toBe('{"event":"transaction.status_changed"}');
    expect(
      signatureMatches(
        'sk_test',
        req!.headers['x-service-timestamp'] as string,
        req!.body,
        req!.headers['x-service-signature'] as string,
      ),
    ).toBe(true);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    r.requests.length = 0;
    r.reply = (n) => (n === 0 ? 302 : 200);
    const result = await sendWebhook(request(`http://127.0.0.1:${port()}/moved`));
    expect(result).toEqual(expect.objectContaining({ statusCode: 302, success: false, error: null }));
    expect(r.requests).toHaveLength(1);
  });

  it('reports a refused connection as an error without a status code', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const result = await sendWebhook(request(url));
    // The merchant is told what happened, never where: the address is for staff.
    expect(result).toEqual(expect.objectContaining({ statusCode: null, success: false, error: 'connection refused' }));
    expect(result.errorDetail).toMatch(/^ECONNREFUSED: .*127\.0\.0\.1:\d+/);
  });
});
