import { waitFor } from '@mm/testing';
import { resendWebhookEvent } from '@mm/db/webhooks';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { settle, violations } from './support/invariants.js';
import { runLoad } from './support/load.js';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Scenario 5: the merchant's webhook endpoint fails (500), times out, is slow, or answers 410 Gone.
 * Every answer but a 2xx within WEBHOOK_TIMEOUT_MS is a failed attempt, recorded and retried on the
 * schedule with the same event_id and the same bytes; 410 is no exception (docs/api.md: a merchant
 * endpoint that is gone by mistake must not lose events). After the schedule's 7 attempts an event
 * is abandoned and can be re-sent by hand.
 */
let sys: ChaosSystem;
const SCHEDULE_S = '0.5,1,1.5,2,3,3';
const ATTEMPTS = 7;

beforeAll(async () => {
  sys = await startChaosSystem({ suite: 'merchant-endpoint', webhookScheduleS: SCHEDULE_S, webhookTimeoutMs: 800 });
});
afterAll(async () => {
  await sys?.stop();
});

it('an endpoint failing, hanging, too slow, gone (410), then slow but in time, then healthy: every event delivered, same event_id on every attempt', async () => {
  const load = runLoad(sys.api, {
    prefix: 'hooks',
    count: 30,
    concurrency: 6,
    suffixes: ['01', '02', '05', '01'],
    refundEvery: 4,
  });
  const outcome = load.then(
    () => null,
    (err: unknown) => err,
  );
  const phases = [
    { kind: 'status', code: 500 },
    { kind: 'hang' },
    { kind: 'slow', delayMs: 1500 },
    { kind: 'status', code: 410 },
    { kind: 'slow', delayMs: 300 },
  ] as const;
  for (const mode of phases) {
    sys.receiver.setMode(mode);
    // Until the endpoint has answered two deliveries that way.
    await waitFor(() => sys.receiver.deliveries.filter((d) => d.mode === mode).length >= 2, {
      what: `deliveries met by ${JSON.stringify(mode)}`,
      timeoutMs: 30_000,
    });
  }
  sys.receiver.setMode({ kind: 'ok' });
  expect(await outcome).toBeNull();
  await settle(sys);
  expect(await violations(sys)).toEqual([]);

  // Each kind of failure was met and recorded as what it was.
  const attempts = await sys.db.webhookAttempt.findMany({ where: { success: false } });
  expect(new Set(attempts.map((a) => a.statusCode))).toEqual(new Set([500, 410, null]));
  expect(attempts.filter((a) => a.statusCode === null).every((a) => /timeout after 800 ms/.test(a.error ?? ''))).toBe(
    true,
  );
  // The endpoint saw events more than once (a timed-out attempt still arrived), always with one event_id.
  const perEvent = new Map<string, number>();
  for (const d of sys.receiver.deliveries)
    perEvent.set(String(d.body.event_id), (perEvent.get(String(d.body.event_id)) ?? 0) + 1);
  expect(Math.max(...perEvent.values())).toBeGreaterThan(1);
});

it('an endpoint gone (410) for good: each event is abandoned after exactly 7 attempts, then delivered once re-sent by hand', async () => {
  const gone = await sys.addReceiver();
  gone.setMode({ kind: 'status', code: 410 });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: `gone-${i}`,
      amount: 2000,
      customer_msisdn: '+2250707000001',
      notify_url: gone.url,
    });
    expect(res.status).toBe(202);
    ids.push(res.body.data.transaction_id as string);
  }
  const abandoned = await waitFor(
    async () => {
      const events = await sys.db.webhookEvent.findMany({ where: { transactionId: { in: ids } } });
      return events.length === ids.length && events.every((e) => e.status === 'ABANDONED') ? events : undefined;
    },
    { what: 'every event to the gone endpoint abandoned', timeoutMs: 60_000 },
  );

  for (const e of abandoned) {
    const tries = await sys.db.webhookAttempt.findMany({ where: { eventId: e.id }, orderBy: { attemptNo: 'asc' } });
    expect(tries.map((a) => [a.attemptNo, a.statusCode, a.success])).toEqual(
      Array.from({ length: ATTEMPTS }, (_, i) => [i + 1, 410, false]),
    );
    expect(gone.deliveries.filter((d) => d.body.event_id === e.id)).toHaveLength(ATTEMPTS);
  }

  // The merchant fixes the endpoint; staff re-send the abandoned events (the relay publishes them).
  gone.setMode({ kind: 'ok' });
  for (const e of abandoned) expect(await sys.db.$transaction((tx) => resendWebhookEvent(tx, e.id))).not.toBeNull();
  await settle(sys);
  expect(await violations(sys)).toEqual([]);
  for (const e of abandoned) {
    expect(await sys.db.webhookEvent.findUniqueOrThrow({ where: { id: e.id } })).toMatchObject({
      status: 'DELIVERED',
      attemptCount: ATTEMPTS + 1,
    });
  }
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
