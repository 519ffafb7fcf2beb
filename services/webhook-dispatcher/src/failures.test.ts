import { revokeApiKey } from '@mm/db/merchants';
import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import { TARGET_REFUSED } from './merchant-reasons.js';
import { createFixture, type Fixture } from './test-support/fixture.js';

async function firstAttempt(f: Fixture, eventId: string) {
  return waitFor(
    () => f.db.webhookAttempt.findFirst({ where: { eventId, attemptNo: 1 } }).then((a) => a ?? undefined),
    { what: 'first attempt' },
  );
}

describe('a receiver that never answers', () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await createFixture({ WEBHOOK_TIMEOUT_MS: '200' });
    await f.start();
    r = await startReceiver(() => 'hang');
  });
  afterAll(async () => {
    await f.close();
    await r.close();
  });

  it('counts a timeout as a failed attempt with no status code, and schedules the retry', async () => {
    const { merchantId } = await f.merchant(r.url);
    const { webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    const attempt = await firstAttempt(f, row!.id);
    expect(attempt).toEqual(
      expect.objectContaining({
        statusCode: null,
        success: false,
        error: 'timeout after 200 ms',
        errorDetail: 'timeout after 200 ms',
      }),
    );
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(190);
    expect(r.requests.length).toBeGreaterThanOrEqual(1);
    const event = await f.db.webhookEvent.findUniqueOrThrow({ where: { id: row!.id } });
    expect(event.lastError).toBe('timeout after 200 ms');
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_NETWORKS false', () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await createFixture({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
    await f.start();
    r = await startReceiver();
  });
  afterAll(async () => {
    await f.close();
    await r.close();
  });

  it('refuses a 127.0.0.1 target without sending anything, recording why on every attempt: generic for the merchant, the address for staff', async () => {
    const { merchantId } = await f.merchant(r.url);
    const { webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    await waitFor(
      async () => (await f.db.webhookEvent.findUniqueOrThrow({ where: { id: row!.id } })).status === 'ABANDONED',
      { what: 'abandoned' },
    );

    const attempts = await f.db.webhookAttempt.findMany({ where: { eventId: row!.id }, orderBy: { attemptNo: 'asc' } });
    expect(attempts).toHaveLength(7);
    for (const a of attempts) {
      expect(a).toEqual(expect.objectContaining({ statusCode: null, success: false, targetUrl: r.url }));
      expect(a.error).toBe(TARGET_REFUSED);
      expect(a.errorDetail).toBe('refused target 127.0.0.1: 127.0.0.1 is a loopback address');
    }
    expect(r.requests).toHaveLength(0);
    expect((await f.db.webhookEvent.findUniqueOrThrow({ where: { id: row!.id } })).lastError).toBe(
      'refused target 127.0.0.1: 127.0.0.1 is a loopback address',
    );
  });
});

describe('a merchant without an active key', () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await createFixture();
    await f.start();
    r = await startReceiver();
  });
  afterAll(async () => {
    await f.close();
    await r.close();
  });

  it('records a failed attempt "merchant has no active key" and sends nothing unsigned', async () => {
    const { merchantId } = await f.merchant(r.url);
    const key = await f.db.apiKey.findFirstOrThrow({ where: { merchantId } });
    await revokeApiKey(f.db, key.apiKey);
    const { webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    const attempt = await firstAttempt(f, row!.id);
    expect(attempt).toEqual(
      expect.objectContaining({ statusCode: null, success: false, error: 'merchant has no active key' }),
    );
    expect(r.requests).toHaveLength(0);
  });
});
