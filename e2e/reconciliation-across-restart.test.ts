import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRedisConnection, QueueProducer, reconciliationRuns } from '@mm/queues';
import type { RunningOperatorMocks } from '@mm/operator-mocks';
import { waitFor } from '@mm/testing';
import type { Redis } from 'ioredis';
import { newOrderId, onceHeard } from './support/contract.js';
import { restartOperatorMocks, withOperatorMocks } from './support/operator-mocks.js';
import { startSystem, type System } from './support/system.js';

/**
 * A day on which the operators restarted (`pnpm start` stopped and started again): with OPERATOR_RECORDS_DIR the
 * simulator and the contract mocks keep their records, so reconciling the day still finds at each operator
 * every payment the earlier run made, as it would with a real operator: no MISSING_AT_OPERATOR case.
 */
let dir: string;
let sys: System;
let mocks: RunningOperatorMocks;
let connection: Redis;
let runs: QueueProducer<object>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mm-e2e-records-'));
  sys = await startSystem({
    operatorRecordsDir: dir,
    bridgeEnv: { CASHIN_STATUS_POLL_S: '2,4' },
    confirmationTimeoutS: 60,
  });
  mocks = await withOperatorMocks(sys, { recordsDir: dir });
  connection = createRedisConnection(sys.redis.url);
  runs = new QueueProducer(reconciliationRuns, { connection, redisPrefix: sys.redis.prefix }) as QueueProducer<object>;
});
afterAll(async () => {
  await runs.close();
  connection.disconnect();
  await mocks.close();
  await sys.stop();
  rmSync(dir, { recursive: true, force: true });
});

const today = () => new Date().toISOString().slice(0, 10);
let seq = 0;

async function paid(msisdn: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await onceHeard(
    () =>
      sys.api('POST', '/api/v1/payments/cashin', {
        merchant_order_id: newOrderId('restart'),
        amount: 5000 + ++seq,
        customer_msisdn: msisdn,
        ...extra,
      }),
    202,
  );
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await sys.db.transaction.findUniqueOrThrow({ where: { id } })).status === 'SUCCESS', {
    what: `${msisdn} SUCCESS`,
    timeoutMs: 20_000,
  });
  return (await sys.db.transaction.findUniqueOrThrow({ where: { id } })).providerReference;
}

async function reconcile(countryCode: string, operator: string) {
  const before = new Date();
  await runs.add({ country_code: countryCode, operator, date: today(), trigger: 'manual' });
  const run = await waitFor(
    async () =>
      (await sys.db.reconciliationRun.findFirst({ where: { countryCode, operator, finishedAt: { gte: before } } })) ??
      undefined,
    {
      what: `the reconciliation of ${countryCode} ${operator}`,
      timeoutMs: 30_000,
    },
  );
  return { run, cases: await sys.db.reconciliationCase.findMany({ where: { countryCode, operator } }) };
}

describe('a day reconciled across a restart of the operators (OPERATOR_RECORDS_DIR)', () => {
  it.each([
    ['the simulator', 'SIMULATOR', '+2250707000001', {}],
    ['MTN MoMo (status queries)', 'MTN', '+2250512345601', {}],
    ['Wave (its list)', 'WAVE', '+2250512345601', { operator: 'WAVE' }],
  ] as const)(
    '%s still has the payments of the run before the restart: no MISSING_AT_OPERATOR',
    async (_name, operator, msisdn, extra) => {
      const beforeRestart = [await paid(msisdn, extra), await paid(msisdn, extra)];
      await sys.restartSimulator();
      mocks = await restartOperatorMocks(sys, mocks, { recordsDir: dir });
      const afterRestart = await paid(msisdn, extra);

      const { run, cases } = await reconcile('CI', operator);
      expect(cases.filter((c) => c.category === 'MISSING_AT_OPERATOR')).toEqual([]);
      for (const reference of [...beforeRestart, afterRestart])
        expect(cases.find((c) => c.recordKey === reference)).toBeUndefined();
      expect(run.matched).toBeGreaterThanOrEqual(3);
    },
  );
});
