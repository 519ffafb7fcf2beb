import { createRedisConnection, QueueProducer, reconciliationRuns } from '@mm/queues';
import { transition } from '@mm/db/payments';
import { verifyLedger } from '@mm/db/ledger';
import type { RunningOperatorMocks } from '@mm/operator-mocks';
import { waitFor } from '@mm/testing';
import type { Redis } from 'ioredis';
import { newOrderId, onceHeard } from './support/contract.js';
import { withOperatorMocks } from './support/operator-mocks.js';
import { startSystem, type System } from './support/system.js';

/**
 * Reconciliation end to end, per operator (docs/reconciliation.md): real cash-ins through each contract mock
 * and the simulator, differences planted in each operator's own books (what it tells: its list, its status
 * queries, its statement), then the operator bridge's reconciliation-runs job for the day. Each difference
 * the operator's records can show ends in one case of its category; the rest matches; the ledger verifies.
 */
let sys: System;
let mocks: RunningOperatorMocks;
let connection: Redis;
let runs: QueueProducer<object>;

beforeAll(async () => {
  sys = await startSystem({ bridgeEnv: { CASHIN_STATUS_POLL_S: '2,4' }, confirmationTimeoutS: 60 });
  mocks = await withOperatorMocks(sys);
  connection = createRedisConnection(sys.redis.url);
  runs = new QueueProducer(reconciliationRuns, { connection, redisPrefix: sys.redis.prefix }) as QueueProducer<object>;
});
afterAll(async () => {
  await runs.close();
  connection.disconnect();
  await mocks.close();
  await sys.stop();
});

const today = () => new Date().toISOString().slice(0, 10);

async function paid(
  msisdn: string,
  amount: number,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; reference: string }> {
  const res = await onceHeard(
    () =>
      sys.api('POST', '/api/v1/payments/cashin', {
        merchant_order_id: newOrderId('rec'),
        amount,
        customer_msisdn: msisdn,
        ...extra,
      }),
    202,
  );
  const id = res.body.data.transaction_id as string;
  if (res.body.data.operator === 'ORANGE' && msisdn.startsWith('+22507')) {
    // Orange WebPay: the customer pays on the operator's page.
    const session = await waitFor(
      async () => (await sys.db.transaction.findUniqueOrThrow({ where: { id } })).providerSessionId ?? undefined,
      { what: 'the WebPay session' },
    );
    mocks.controls.orangeWebpay.pay(session, msisdn);
  }
  await waitFor(async () => (await sys.db.transaction.findUniqueOrThrow({ where: { id } })).status === 'SUCCESS', {
    what: `${msisdn} SUCCESS`,
    timeoutMs: 20_000,
  });
  return { id, reference: (await sys.db.transaction.findUniqueOrThrow({ where: { id } })).providerReference };
}

async function plant(
  controlBase: string,
  reference: string,
  change: object,
  headers: Record<string, string> = {},
): Promise<void> {
  const res = await fetch(`${controlBase}/plant`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ reference, change }),
  });
  expect(res.status).toBe(204);
}

async function reconcile(countryCode: string, operator: string) {
  const before = new Date();
  await runs.add({ country_code: countryCode, operator, date: today(), trigger: 'manual' });
  await waitFor(
    async () => {
      const run = await sys.db.reconciliationRun.findFirst({
        where: { countryCode, operator, finishedAt: { gte: before } },
      });
      return run ?? undefined;
    },
    { what: `the reconciliation of ${countryCode} ${operator}`, timeoutMs: 30_000 },
  );
  return sys.db.reconciliationCase.findMany({ where: { countryCode, operator } });
}

let seq = 0;
const caseOf = (cases: { recordKey: string; category: string; state: string }[], key: string) =>
  cases.find((c) => c.recordKey === key);

describe("a day reconciled against each operator's own records, with planted differences", () => {
  it.each([
    // [name, country, operator, control base, customer, extra, list API (shows movements unknown to us), status shows amounts]
    ['MTN MoMo CI (status queries)', 'CI', 'MTN', () => `${mocks.urls.mtnCi}/_mock`, '+2250512345601', {}, false, true],
    ['MTN MoMo CM (status queries)', 'CM', 'MTN', () => `${mocks.urls.mtnCm}/_mock`, '+237675551201', {}, false, true],
    [
      'Orange mp CM (status queries)',
      'CM',
      'ORANGE',
      () => `${mocks.urls.orangeMp}/_mock`,
      '+237691234501',
      {},
      false,
      true,
    ],
    [
      'Orange WebPay CI (status queries, no amount)',
      'CI',
      'ORANGE',
      () => `${mocks.urls.orangeWebpay}/_mock`,
      '+2250712345601',
      {},
      false,
      false,
    ],
    [
      'Wave CI (list API)',
      'CI',
      'WAVE',
      () => `${mocks.urls.wave}/_mock`,
      '+2250512345601',
      { operator: 'WAVE' },
      true,
      true,
    ],
  ] as const)('%s', async (_name, country, operator, controlBase, msisdn, extra, listed, amounts) => {
    // Orange refuses the same number and amount twice within a short window: an amount of its own each.
    const a = await paid(msisdn, 5000 + ++seq, extra);
    const b = await paid(msisdn, 7000 + ++seq, extra);
    const c = await paid(msisdn, 9000 + ++seq, extra);
    // Status queries that name no amount (WebPay's) cannot show another one: that plant is left out.
    if (amounts) await plant(controlBase(), a.reference, { type: 'amount', amount: 1 });
    await plant(controlBase(), b.reference, { type: 'status', status: 'FAILED' });
    // Only a list shows a movement we do not know: status queries ask about ours.
    if (listed)
      await plant(controlBase(), `NOT-OURS-${operator}`, {
        type: 'unknown',
        kind: 'CASHIN',
        amount: 2500,
        currency: 'XOF',
        operator_tx_id: `X-${operator}`,
      });

    const cases = await reconcile(country, operator);
    if (amounts) expect(caseOf(cases, a.reference)).toMatchObject({ category: 'AMOUNT_DIFFERS', state: 'OPEN' });
    // Wave's list holds executed movements only: one it says failed is simply not there.
    expect(caseOf(cases, b.reference)).toMatchObject({
      category: operator === 'WAVE' ? 'MISSING_AT_OPERATOR' : 'STATUS_DIFFERS',
      state: 'OPEN',
    });
    expect(caseOf(cases, c.reference)).toBeUndefined();
    if (listed)
      expect(caseOf(cases, `NOT-OURS-${operator}`)).toMatchObject({ category: 'UNKNOWN_TO_US', state: 'OPEN' });
    const run = await sys.db.reconciliationRun.findFirstOrThrow({ where: { countryCode: country, operator } });
    expect(run.sources).toEqual([listed ? 'API' : 'STATUS_QUERY']);
    expect(run.matched).toBeGreaterThanOrEqual(1);
    expect(await verifyLedger(sys.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('the simulator: a late success after EXPIRED found only by reconciliation credits the merchant, by itself', async () => {
    const { reference } = await paid('+2250707000001', 4200);
    // A customer who never answers (06): PENDING, then EXPIRED here; the simulator's books then say it
    // collected it (planted), and the bridge never heard of it.
    const res = await onceHeard(
      () =>
        sys.api('POST', '/api/v1/payments/cashin', {
          merchant_order_id: newOrderId('rec'),
          amount: 3100,
          customer_msisdn: '+2250707000006',
        }),
      202,
    );
    const expired = res.body.data.transaction_id as string;
    await waitFor(
      async () => (await sys.db.transaction.findUniqueOrThrow({ where: { id: expired } })).status === 'PENDING',
      { what: 'PENDING' },
    );
    await sys.db.$transaction((tx) =>
      transition(tx, { transactionId: expired, to: 'EXPIRED', cause: 'test: confirmation timeout' }),
    );
    const expiredRef = (await sys.db.transaction.findUniqueOrThrow({ where: { id: expired } })).providerReference;
    const sandbox = { Authorization: `Bearer ${sys.sandboxToken}` };
    await plant(`${sys.sim.url}/sandbox`, expiredRef, { type: 'status', status: 'SUCCESS' }, sandbox);
    // And it has no record of one we collected.
    await plant(`${sys.sim.url}/sandbox`, reference, { type: 'drop' }, sandbox);

    const cases = await reconcile('CI', 'SIMULATOR');
    expect(caseOf(cases, expiredRef)).toMatchObject({
      category: 'STATUS_DIFFERS',
      state: 'RESOLVED',
      resolution: 'AUTOMATIC',
    });
    expect((await sys.db.transaction.findUniqueOrThrow({ where: { id: expired } })).status).toBe('SUCCESS');
    await waitFor(
      () => sys.receiver.received.some((w) => w.body.transaction_id === expired && w.body.status === 'SUCCESS'),
      { what: 'the late SUCCESS webhook' },
    );
    expect(caseOf(cases, reference)).toMatchObject({ category: 'MISSING_AT_OPERATOR', state: 'OPEN' });
    expect(await verifyLedger(sys.db)).toMatchObject({ ok: true, problems: [] });
  });
});
