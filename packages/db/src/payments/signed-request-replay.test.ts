import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { DomainError } from '@mm/domain';
import { waitFor } from '@mm/testing';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { verifyLedger } from '../ledger/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { completeRefund } from './refunds/complete-refund.js';
import { createRefund } from './refunds/create-refund.js';
import { createCashin } from './create-cashin.js';
import { createCashout } from './create-cashout.js';
import { transition } from './moves/transition.js';

/**
 * What a refund or a cash-out keeps of the signed request that created it (request_signature_hash):
 * unique, so the same signed request cannot create a second row once Redis has forgotten it, and its
 * refusal rolls back everything the attempt did.
 */
let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 6 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
const newHash = () => hashOf(randomUUID());

/** A merchant with one SUCCESS cash-in of `amount` in CI (its available balance). */
async function capturedCashin(amount = 10_000): Promise<{ merchantId: string; transactionId: string }> {
  const merchantId = (await createMerchant(db, { name: 'Replay Test', webhookUrl: null })).id;
  const c = await createCashin(db, {
    merchantId,
    merchantOrderId: `in-${randomUUID()}`,
    amount,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000001',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (c.kind !== 'created') throw new Error('setup');
  for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const) {
    await db.$transaction((tx) => transition(tx, { transactionId: c.transaction.id, to, cause: 'setup' }));
  }
  return { merchantId, transactionId: c.transaction.id };
}

const refund = (
  on: { merchantId: string; transactionId: string },
  o: { amount?: number; key?: string; hash?: string | null } = {},
) =>
  createRefund(db, {
    ...on,
    amount: o.amount ?? 1000,
    reason: null,
    idempotencyKey: o.key ?? null,
    requestFingerprint: `fp-${o.amount ?? 1000}`,
    requestSignatureHash: o.hash === undefined ? newHash() : o.hash,
  });

const cashout = (merchantId: string, o: { order?: string; hash?: string | null } = {}) =>
  createCashout(db, {
    merchantId,
    merchantOrderId: o.order ?? `out-${randomUUID()}`,
    amount: 2000,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000002',
    reason: null,
    notifyUrl: null,
    requestFingerprint: 'fp-out',
    approval: 'none',
    requestSignatureHash: o.hash === undefined ? newHash() : o.hash,
  });

/** Everything a refund or a cash-out of this merchant writes. */
async function footprint(merchantId: string) {
  const accounts = await db.ledgerAccount.findMany({ where: { merchantId }, orderBy: { kind: 'asc' } });
  const transactions = await db.transaction.findMany({
    where: { merchantId },
    orderBy: { id: 'asc' },
    select: { id: true, refundReservedAmount: true },
  });
  return {
    balances: accounts.map((a) => `${a.kind}:${a.balance}`),
    transactions,
    refunds: await db.refund.count({ where: { merchantId } }),
    journals: await db.journalEntry.count({ where: { account: { merchantId } } }),
    outbox: await db.outbox.count(),
  };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof DomainError)) throw err instanceof Error ? err : new Error('not refused');
  return `${err.code}: ${err.message}`;
}
const REPLAYED = 'REQUEST_REPLAYED: this signed request was already received';

/** A refund row written by hand (fingerprint 'raw'): no reservation or journal of its own. */
const rawRefund = (client: pg.Client, on: { merchantId: string; transactionId: string }, hash: string | null) =>
  client.query(
    `INSERT INTO refunds (id, transaction_id, merchant_id, amount, currency, status, provider_reference, request_fingerprint, request_signature_hash)
   VALUES ($1, $2, $3, 1, 'XOF', 'PENDING', $4, 'raw', $5)`,
    [randomUUID(), on.transactionId, on.merchantId, `RF-${randomUUID()}`, hash],
  );

/** Rows written by hand would fail verifyLedger, which the other tests run over the whole database. */
const removeRawRows = () =>
  db.$transaction([
    db.refund.deleteMany({ where: { requestFingerprint: 'raw' } }),
    db.transaction.deleteMany({ where: { requestFingerprint: 'raw' } }),
  ]);

describe('the schema', () => {
  it('refuses a second refund or transaction with the same hash, accepts any number without one, and only lowercase hex', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const on = await capturedCashin();
      const hash = newHash();
      const insertRefund = (h: string | null) => rawRefund(client, on, h);
      const insertTransaction = (h: string | null) =>
        client.query(
          `INSERT INTO transactions (merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, request_fingerprint, provider_reference, request_signature_hash)
         VALUES ($1, $2, 'CASHOUT', 'CREATED', 1, 'XOF', 'CI', '+2250707000002', 'raw', $3, $4)`,
          [on.merchantId, `o-${randomUUID()}`, `CO-${randomUUID()}`, h],
        );

      await insertRefund(hash);
      await expect(insertRefund(hash)).rejects.toThrow(/refunds_request_signature_key/);
      await insertRefund(null);
      await insertRefund(null);
      await expect(insertRefund(hash.toUpperCase())).rejects.toThrow(/refunds_request_signature_hash_hex/);

      // The same hash on a refund and on a transaction: two tables, two requests.
      await insertTransaction(hash);
      await expect(insertTransaction(hash)).rejects.toThrow(/transactions_request_signature_key/);
      await insertTransaction(null);
      await insertTransaction(null);
      await expect(insertTransaction(hash.slice(1))).rejects.toThrow(/transactions_request_signature_hash_hex/);
    } finally {
      await client.end();
      await removeRawRows();
    }
  });
});

describe('a refund asked again by the same signed request', () => {
  it('is REQUEST_REPLAYED and writes nothing, while room is left on the cash-in', async () => {
    const on = await capturedCashin();
    const hash = newHash();
    expect((await refund(on, { amount: 1000, hash })).kind).toBe('created');
    const before = await footprint(on.merchantId);
    expect(await refusal(refund(on, { amount: 1000, hash }))).toBe(REPLAYED);
    expect(await footprint(on.merchantId)).toEqual(before);
    // Another request for the same amount (signed anew, so another hash) is a second refund.
    expect((await refund(on, { amount: 1000 })).kind).toBe('created');
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('is REQUEST_REPLAYED once the refund is paid and the cash-in REVERSED, not INVALID_STATE', async () => {
    const on = await capturedCashin(3000);
    const hash = newHash();
    const first = await refund(on, { amount: 3000, hash });
    await db.$transaction((tx) => completeRefund(tx, first.refund.id, { status: 'SUCCESS', providerRefundId: 'p-1' }));
    expect((await db.transaction.findUniqueOrThrow({ where: { id: on.transactionId } })).status).toBe('REVERSED');
    const before = await footprint(on.merchantId);
    expect(await refusal(refund(on, { amount: 3000, hash }))).toBe(REPLAYED);
    expect(await footprint(on.merchantId)).toEqual(before);
  });

  it('with an Idempotency-Key: REQUEST_REPLAYED, as the Redis guard answers before the key is looked at; a retry signed anew gets the refund', async () => {
    const on = await capturedCashin();
    const hash = newHash();
    const first = await refund(on, { amount: 500, key: 'order-7-refund', hash });
    expect(first.kind).toBe('created');
    const before = await footprint(on.merchantId);
    expect(await refusal(refund(on, { amount: 500, key: 'order-7-refund', hash }))).toBe(REPLAYED);
    const retry = await refund(on, { amount: 500, key: 'order-7-refund' });
    expect({ kind: retry.kind, id: retry.refund.id }).toEqual({ kind: 'replayed', id: first.refund.id });
    expect(await footprint(on.merchantId)).toEqual(before);
  });

  it('is refused by the unique index when the look-up cannot see the first (uncommitted), and nothing of it is kept', async () => {
    const a = await capturedCashin();
    const b = await capturedCashin();
    const hash = newHash();
    // A refund of cash-in A holding the hash, not yet committed: the refund of cash-in B (another
    // transaction row, so another lock) looks the hash up, finds nothing, and waits on the index.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await rawRefund(holder, a, hash);
      const before = await footprint(b.merchantId);
      const pending = refusal(refund(b, { amount: 4000, hash }));
      // Asked outside the holder's transaction, whose view of pg_stat_activity would stay as first read.
      await waitFor(
        async () =>
          (
            await db.$queryRaw<unknown[]>`
        SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%insert into%refunds%'`
          ).length === 1,
        { what: 'the second refund waiting on the unique index' },
      );
      await holder.query('COMMIT');
      expect(await pending).toBe(REPLAYED);
      // Its room on cash-in B (taken before the insert), its journal and its outbox row: all rolled back.
      expect(await footprint(b.merchantId)).toEqual(before);
    } finally {
      await holder.end();
      await removeRawRows();
    }
  });
});

describe('a cash-out asked again by the same signed request', () => {
  it('under the same order: the existing row is returned with the hash, for the gateway to answer REQUEST_REPLAYED', async () => {
    const { merchantId } = await capturedCashin();
    const hash = newHash();
    const first = await cashout(merchantId, { order: 'co-same', hash });
    expect(first.kind).toBe('created');
    const before = await footprint(merchantId);
    const again = await cashout(merchantId, { order: 'co-same', hash });
    expect({ kind: again.kind, id: again.transaction.id, hash: again.transaction.requestSignatureHash }).toEqual({
      kind: 'existing',
      id: first.transaction.id,
      hash,
    });
    expect(await footprint(merchantId)).toEqual(before);
  });

  it('refused by the index under another order: REQUEST_REPLAYED, nothing reserved or queued', async () => {
    const { merchantId } = await capturedCashin();
    const hash = newHash();
    expect((await cashout(merchantId, { hash })).kind).toBe('created');
    const before = await footprint(merchantId);
    expect(await refusal(cashout(merchantId, { hash }))).toBe(REPLAYED);
    expect(await footprint(merchantId)).toEqual(before);
    // Without a hash (tools, tests) nothing is remembered.
    expect((await cashout(merchantId, { hash: null })).kind).toBe('created');
    expect((await cashout(merchantId, { hash: null })).kind).toBe('created');
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});
