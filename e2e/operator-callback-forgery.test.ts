/**
 * A forged or replayed operator callback changes nothing (security review, point 1): a production
 * bridge never verifies with the published simulator secret, the same signed delivery is queued once,
 * a callback naming a cash-out's reference cannot fail it and release its reservation, and a callback
 * moves only a payment of the operator account whose secret signed it.
 */
import { setOperatorAccountCredentials, upsertOperatorAccount } from '@mm/db/operator-accounts';
import { createCashout, transition } from '@mm/db/payments';
import { signPayload } from '@mm/domain';
import { createLogger } from '@mm/observability';
import { parseEnv as bridgeEnv, startOperatorBridge, type RunningBridge } from '@mm/operator-bridge';
import { createRedisConnection, operatorResults, QueueProducer } from '@mm/queues';
import { startSimulator, type RunningSimulator } from '@mm/operator-simulator';
import { samplesOf, sandboxFetch, waitFor } from '@mm/testing';
import type { Redis } from 'ioredis';
import { simulatorCallbackUrl, startExtraBridge } from './support/reliability-bridge.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

let sys: System;
let bridge: RunningBridge;
let connection: Redis;
let results: QueueProducer<object>;
let seq = 0;

beforeAll(async () => {
  sys = await startSystem();
  bridge = await startExtraBridge(sys);
  connection = createRedisConnection(sys.redis.url);
  results = new QueueProducer(operatorResults, { connection, redisPrefix: sys.redis.prefix }) as QueueProducer<object>;
});
afterAll(async () => {
  await results.close();
  connection.disconnect();
  await bridge.stop();
  await sys.stop();
});

const transaction = (id: string) => sys.db.transaction.findUniqueOrThrow({ where: { id } });
const statusIs = (id: string, status: string) =>
  waitFor(async () => ((await transaction(id)).status === status ? transaction(id) : undefined), {
    what: `transaction ${id} ${status}`,
  });
const signed = (body: string, secret = 'sim-callback-secret', timestamp = String(Math.floor(Date.now() / 1000))) => ({
  'Content-Type': 'application/json',
  'X-Operator-Timestamp': timestamp,
  'X-Operator-Signature': signPayload(secret, timestamp, body),
});
const callbackBody = (reference: string, state: string, txnStatus: string | null, txId: string | null = null) =>
  JSON.stringify({
    partner_reference: reference,
    session_id: null,
    provider_tx_id: txId,
    state,
    txn_status: txnStatus,
    failure_reason: null,
  });
const resultsDrained = () =>
  waitFor(
    async () => {
      const c = await results.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(c).every((n) => n === 0);
    },
    { what: 'operator results applied' },
  );

async function cashin(suffix: string) {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: `forgery-${Date.now()}-${++seq}`,
    amount: 5000,
    customer_msisdn: CI_NUMBER(suffix),
  });
  expect(res.status).toBe(202);
  return res.body.data as { transaction_id: string; provider_reference: string; status: string };
}

async function callbackCounts(url: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Object.fromEntries(samplesOf(text, 'mm_operator_callbacks_total').map((s) => [s.labels.outcome, s.value]));
}

describe('a production bridge', () => {
  let production: RunningBridge;
  beforeAll(async () => {
    production = await startOperatorBridge(
      bridgeEnv({
        NODE_ENV: 'production',
        DEPLOYMENT_MODE: 'sandbox',
        DATABASE_URL: sys.database.url,
        REDIS_URL: sys.redis.url,
        REDIS_PREFIX: sys.redis.prefix,
        LOG_LEVEL: 'silent',
        DB_POOL_SIZE: '2',
        OPERATOR_BASE_URL: sys.sim.url,
        OPERATOR_BRIDGE_PORT: '0',
        OPERATOR_BRIDGE_INTERNAL_PORT: '0',
        OPERATOR_API_TOKEN: 'operator-issued-token',
        OPERATOR_CALLBACK_SECRET: 'operator-issued-callback-secret',
      }),
      { logger: createLogger('e2e-production-bridge', 'silent') },
    );
  });
  afterAll(async () => {
    await production.stop();
  });

  it("refuses a callback forged with the published simulator secret, and takes the operator's own", async () => {
    const data = await cashin('55');
    expect(data.status).toBe('PENDING');
    const body = callbackBody(data.provider_reference, 'OK', '200', 'MPFORGED0001');
    const forged = await fetch(simulatorCallbackUrl(production), { method: 'POST', headers: signed(body), body });
    expect(forged.status).toBe(401);
    expect(await callbackCounts(production.internalUrl)).toEqual({ invalid: 1 });
    expect((await transaction(data.transaction_id)).status).toBe('PENDING');

    const genuine = await fetch(simulatorCallbackUrl(production), {
      method: 'POST',
      headers: signed(body, 'operator-issued-callback-secret'),
      body,
    });
    expect(genuine.status).toBe(200);
    expect((await statusIs(data.transaction_id, 'SUCCESS')).providerTxId).toBe('MPFORGED0001');
  });
});

describe('a signed callback', () => {
  it('sent again with the same signature is acknowledged and not taken twice; signed anew it is a new delivery', async () => {
    const data = await cashin('55');
    const body = callbackBody(data.provider_reference, 'canceled', null);
    const headers = signed(body);
    const before = await callbackCounts(bridge.internalUrl);

    const first = await fetch(simulatorCallbackUrl(bridge), { method: 'POST', headers, body });
    expect([first.status, await first.json()]).toEqual([200, { received: true }]);
    await statusIs(data.transaction_id, 'FAILED');
    const again = await fetch(simulatorCallbackUrl(bridge), { method: 'POST', headers, body });
    expect([again.status, await again.json()]).toEqual([200, { received: true, duplicate: true }]);
    // Another second, another signature: an operator's retry, taken (and harmless: the cash-in has moved on).
    const later = String(Math.floor(Date.now() / 1000) + 1);
    const retried = await fetch(simulatorCallbackUrl(bridge), {
      method: 'POST',
      headers: signed(body, 'sim-callback-secret', later),
      body,
    });
    expect([retried.status, await retried.json()]).toEqual([200, { received: true }]);

    const after = await callbackCounts(bridge.internalUrl);
    // Taken: applied in the request (a signed result) or queued for the worker; both count once per delivery.
    const taken = (c: Record<string, number>) => (c.applied ?? 0) + (c.queued ?? 0);
    expect({ taken: taken(after) - taken(before), replayed: (after.replayed ?? 0) - (before.replayed ?? 0) }).toEqual({
      taken: 2,
      replayed: 1,
    });
    await resultsDrained();
    const moves = await sys.db.transactionEvent.findMany({
      where: { transactionId: data.transaction_id },
      orderBy: { id: 'asc' },
    });
    expect(moves.map((e) => `${e.fromStatus}->${e.toStatus}`)).toEqual([
      'null->CREATED',
      'CREATED->INITIATED',
      'INITIATED->PENDING',
      'PENDING->FAILED',
    ]);
  });

  it("naming a cash-out's reference changes nothing: not failed, reservation kept, no webhook", async () => {
    // A balance to pay out from: one captured cash-in.
    const paid = await cashin('01');
    await statusIs(paid.transaction_id, 'SUCCESS');
    const created = await createCashout(sys.db, {
      merchantId: sys.merchant.id,
      merchantOrderId: `forgery-out-${++seq}`,
      amount: 3000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: CI_NUMBER('01'),
      reason: null,
      notifyUrl: null,
      requestFingerprint: 'fp',
      approval: 'required',
    });
    if (created.kind !== 'created') throw new Error('not created');
    const id = created.transaction.id;
    // Approved and sent to the operator: INITIATED, its amount reserved.
    await sys.db.$transaction((tx) => transition(tx, { transactionId: id, to: 'INITIATED', cause: 'test-approval' }));
    const reserved = await sys.db.ledgerAccount.findFirstOrThrow({
      where: { merchantId: sys.merchant.id, countryCode: 'CI', kind: 'MERCHANT_CASHOUT_RESERVED' },
    });
    const entries = await sys.db.journalEntry.count({ where: { transactionId: id } });

    for (const [state, txnStatus] of [
      ['KO', null],
      ['canceled', null],
      ['OK', '200'],
    ] as const) {
      const body = callbackBody(created.transaction.providerReference, state, txnStatus);
      const res = await fetch(simulatorCallbackUrl(bridge), { method: 'POST', headers: signed(body), body });
      expect(res.status).toBe(200);
    }
    await resultsDrained();
    expect(await transaction(id)).toMatchObject({ status: 'INITIATED', failureCode: null, providerState: null });
    expect(await sys.db.journalEntry.count({ where: { transactionId: id } })).toBe(entries);
    expect((await sys.db.ledgerAccount.findUniqueOrThrow({ where: { id: reserved.id } })).balance).toBe(
      reserved.balance,
    );
    expect(await sys.db.webhookEvent.count({ where: { transactionId: id } })).toBe(0);
  });
});

describe('a SIMULATOR account with its own callback secret (its own simulator)', () => {
  const OWN_SECRET = 'sn-own-callback-secret';
  let own: RunningSimulator;
  beforeAll(async () => {
    own = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      apiToken: 'sn-own-token',
      sandboxToken: 'sn-own-sandbox',
      callbackSecret: OWN_SECRET,
      outcomeDelayMs: 50,
      lateConfirmDelayMs: 1500,
      hangMs: 1500,
      callbackRetryDelaysMs: [50, 100, 200],
      log: () => undefined,
    });
    // Senegal's SIMULATOR account now calls that simulator, with its credentials; Côte d'Ivoire's keeps the settings' one.
    await upsertOperatorAccount(sys.db, {
      countryCode: 'SN',
      operator: 'SIMULATOR',
      api: 'simulator',
      baseUrl: own.url,
    });
    await setOperatorAccountCredentials(sys.db, sys.box, 'SN', 'SIMULATOR', {
      apiToken: 'sn-own-token',
      callbackSecret: OWN_SECRET,
    });
  });
  afterAll(async () => {
    await own.close();
  });

  /** A Senegalese cash-in pushed through the account's own simulator (once the bridges heard of the account's change). */
  const ownCashin = () =>
    waitFor(
      async () => {
        const res = await sys.api('POST', '/api/v1/payments/cashin', {
          merchant_order_id: `forgery-sn-${Date.now()}-${++seq}`,
          amount: 5000,
          customer_msisdn: '+221771234555',
        });
        expect(res.status).toBe(202);
        const data = res.body.data as { transaction_id: string; provider_reference: string };
        await statusIs(data.transaction_id, 'PENDING');
        return own.pushCount(data.provider_reference) === 1 ? data : undefined;
      },
      { what: "a cash-in pushed through the SN account's own simulator" },
    );
  const rowsOf = async (id: string) => ({
    transaction: await transaction(id),
    events: await sys.db.transactionEvent.count({ where: { transactionId: id } }),
    journal: await sys.db.journalEntry.count({ where: { transactionId: id } }),
  });
  // The suite's own bridge: it opens the account's credentials (the suite's MASTER_KEY).
  const globalRoute = () => `${sys.bridgeUrl}/operator/callbacks/simulator`;
  const accountRoute = (country: string) => `${globalRoute()}/${country}`;

  it("a callback forged with the settings' secret is refused on either route and changes nothing; the account's own simulator's callback applies", async () => {
    const data = await ownCashin();
    const before = await rowsOf(data.transaction_id);
    const body = callbackBody(data.provider_reference, 'OK', '200', 'MPFORGED0002');
    for (const url of [globalRoute(), accountRoute('sn')]) {
      const forged = await fetch(url, { method: 'POST', headers: signed(body), body });
      expect([url, forged.status, ((await forged.json()) as { error?: { code?: string } }).error?.code]).toEqual([
        url,
        401,
        'INVALID_SIGNATURE',
      ]);
    }
    await resultsDrained();
    expect(await rowsOf(data.transaction_id)).toEqual(before);

    // The customer approves on the account's simulator: its callback, signed with the account's secret, goes to the account's route.
    const confirmed = await sandboxFetch(own.url, 'sn-own-sandbox')(
      `/sandbox/payments/${data.provider_reference}/confirm`,
      { method: 'POST' },
    );
    expect(confirmed.status).toBeLessThan(300);
    expect(await statusIs(data.transaction_id, 'SUCCESS')).toMatchObject({
      providerState: 'OK',
      providerTxnStatus: '200',
    });
    expect(
      (
        await sys.db.transactionEvent.findFirstOrThrow({
          where: { transactionId: data.transaction_id, toStatus: 'SUCCESS' },
        })
      ).cause,
    ).toBe('operator-result:callback');
  });

  it("a callback signed with the account's own secret does not move a payment of an account using the settings' secret", async () => {
    const data = await cashin('55');
    const before = await rowsOf(data.transaction_id);
    const body = callbackBody(data.provider_reference, 'OK', '200', 'MPFORGED0003');
    const onGlobal = await fetch(globalRoute(), { method: 'POST', headers: signed(body, OWN_SECRET), body });
    expect(onGlobal.status).toBe(401);
    // On the SN account's route its secret holds, but for a CI payment it proves nothing: taken as a hint at most.
    const onAccount = await fetch(accountRoute('sn'), { method: 'POST', headers: signed(body, OWN_SECRET), body });
    expect(onAccount.status).toBe(200);
    await resultsDrained();
    expect(await rowsOf(data.transaction_id)).toEqual(before);
  });
});
