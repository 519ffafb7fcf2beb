import DataLoader from 'dataloader';
import { rawAccessOf, type Db, noticingMismatches, PRISMA_LIKE_TYPES, statementName } from '../database/index.js';
import type { Transaction } from '../generated/prisma/client.js';
import { columnList } from './transaction-row.js';

/** The columns of a transaction that its status read (GET /payments/{id}) shows. */
const STATUS_FIELDS = [
  'id',
  'merchantOrderId',
  'type',
  'status',
  'amount',
  'currency',
  'countryCode',
  'providerReference',
  'providerTxId',
  'providerSessionId',
  'providerState',
  'providerTxnStatus',
  'failureCode',
  'failureReason',
  'refundedAmount',
  'completedAt',
  'operator',
  'customerAction',
  'paymentLinkId',
] as const satisfies readonly (keyof Transaction)[];

export type TransactionStatusRow = Pick<Transaction, (typeof STATUS_FIELDS)[number]>;

/** The most reads one statement answers; more wait for the next. */
export const STATUS_READ_BATCH = 64;

// Every read asked for in one turn of the event loop, in one statement: each row is found by its
// primary key alone in a subquery of its own, and its merchant checked outside it. OFFSET 0 keeps
// PostgreSQL from turning the subquery into a join, and naming the merchant outside keeps it from
// reaching the row through the merchant's index: a plan made on a small table never analysed, and kept
// once the table has grown, would otherwise read the whole table, or all of the merchant's rows, for
// every read (transaction-status.test.ts). `n` says which read a row answers; a read with no row
// (unknown, or another merchant's) has none.
const STATUS_READS = {
  text: `SELECT k.n AS "n", ${STATUS_FIELDS.map((f) => `s."${f}"`).join(', ')}
    FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS k(id, merchant_id, n)
    CROSS JOIN LATERAL (SELECT merchant_id, ${columnList(STATUS_FIELDS)} FROM transactions WHERE id = k.id OFFSET 0) s
   WHERE s.merchant_id = k.merchant_id`,
  types: PRISMA_LIKE_TYPES,
};
// Named: prepared once per connection, then each batch sends only its ids. Unnamed through a
// transaction-mode pooler, where the next batch may land on a server connection that never saw it.
const NAMED_STATUS_READS = { ...STATUS_READS, name: statementName(STATUS_READS.text) };

interface StatusKey {
  id: string;
  merchantId: string;
}
type Found = TransactionStatusRow & { n: bigint };

const loaders = new WeakMap<Db, DataLoader<StatusKey, TransactionStatusRow | null>>();

function loaderOf(db: Db): DataLoader<StatusKey, TransactionStatusRow | null> {
  let loader = loaders.get(db);
  if (loader) return loader;
  const access = rawAccessOf(db);
  const { pool, onQuery, namedStatements } = access;
  loader = new DataLoader<StatusKey, TransactionStatusRow | null>(
    async (keys) => {
      onQuery?.(STATUS_READS.text);
      const result = await noticingMismatches(
        access,
        pool.query<Found>({
          ...(namedStatements ? NAMED_STATUS_READS : STATUS_READS),
          values: [keys.map((k) => k.id), keys.map((k) => k.merchantId)],
        }),
      );
      const answers: (TransactionStatusRow | null)[] = keys.map(() => null);
      for (const { n, ...row } of result.rows) answers[Number(n) - 1] = row;
      return answers;
    },
    {
      // No cache: every read goes to the database (a status changes between two polls). A batch is what
      // one turn of the event loop asked for, so a read waits for no timer: under load the requests that the
      // rate limiter's one Redis answer let through together share one round trip, and alone a read is
      // sent at once.
      cache: false,
      maxBatchSize: STATUS_READ_BATCH,
      batchScheduleFn: (send) => setImmediate(send),
    },
  );
  loaders.set(db, loader);
  return loader;
}

/**
 * The merchant's transaction `id` as its status read shows it, or null when there is none (another
 * merchant's answers the same). The hottest read of the API: sent on the client's pg pool as one
 * prepared statement rather than through Prisma (a Prisma model query cost about three times the CPU
 * of the same statement on pg), and every read asked for in the same turn of the event loop shares
 * one statement, so that under load a read costs a share of a round trip to PostgreSQL rather than a
 * whole one (docs/performance-log.md). `id` must be a UUID.
 */
export function readTransactionStatus(db: Db, id: string, merchantId: string): Promise<TransactionStatusRow | null> {
  return loaderOf(db).load({ id, merchantId });
}
