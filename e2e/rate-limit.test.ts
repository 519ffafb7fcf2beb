import { startSystem, type System } from './support/system.js';

let sys: System;
beforeAll(async () => {
  sys = await startSystem({ gatewayEnv: { RATE_LIMIT_PER_S: '2', RATE_LIMIT_BURST: '4' } });
});
afterAll(async () => {
  await sys.stop();
});

describe('per-merchant rate limit', () => {
  it('answers 429 RATE_LIMITED with Retry-After once the burst is used, and RateLimit-* headers before', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => sys.api('GET', '/api/v1/balances')));
    const accepted = answers.filter((a) => a.status === 200);
    // 2 per 1-second window plus 2 of burst: 4 pass, 6 if the volley straddles a window edge.
    expect(accepted.length).toBeGreaterThanOrEqual(4);
    expect(accepted.length).toBeLessThanOrEqual(6);
    expect(answers.filter((a) => a.status === 429).length).toBe(10 - accepted.length);
    expect(accepted[0]!.headers.get('ratelimit-limit')).toBe('2');
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', request_id: refused.headers.get('x-request-id') });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('counts each merchant separately', async () => {
    const { createApiKey, createMerchant } = await import('@mm/db/merchants');
    const { signedClient } = await import('@mm/testing');
    const other = await createMerchant(sys.db, { name: 'Other', webhookUrl: null });
    const key = await createApiKey(sys.db, sys.box, other.id);
    const api = signedClient(sys.gatewayUrl, key.apiKey, key.apiSecret);
    expect((await api('GET', '/api/v1/balances')).status).toBe(200);
  });
});
