import { rawAccessOf, type Db } from './client.js';
import { PRISMA_LIKE_TYPES, statementName } from './raw-query.js';
import type { Transaction } from './generated/prisma/client.js';
import { columnList } from './transactions/transaction-row.js';

/** The columns of a transaction that its status read (GET /payments/{id}) shows. */
const STATUS_FIELDS = [
  'id', 'merchantOrderId', 'type', 'status', 'amount', 'currency', 'countryCode', 'providerReference', 'providerTxId',
  'providerSessionId', 'providerState', 'providerTxnStatus', 'failureCode', 'failureReason', 'refundedAmount', 'completedAt',
  'operator', 'customerAction',
] as const satisfies readonly (keyof Transaction)[];

export type TransactionStatusRow = Pick<Transaction, (typeof STATUS_FIELDS)[number]>;

const STATUS_READ = {
  text: `SELECT ${columnList(STATUS_FIELDS)} FROM transactions WHERE id = $1 AND merchant_id = $2`,
  types: PRISMA_LIKE_TYPES,
};
// Named: prepared once per connection, then each read sends only its two ids. Unnamed through a
// transaction-mode pooler, where the next read may land on a server connection that never saw it.
// Its name is the one every raw statement of the package gets (statementName), made once here.
const NAMED_STATUS_READ = { ...STATUS_READ, name: statementName(STATUS_READ.text) };

/**
 * The merchant's transaction `id` as its status read shows it, or null when there is none (another
 * merchant's answers the same). The hottest read of the API, so it is sent on the client's pg pool
 * as one prepared statement rather than through Prisma: a Prisma model query cost about three times
 * the CPU of the same statement on pg (docs/performance.md). `id` must be a UUID.
 */
export async function readTransactionStatus(db: Db, id: string, merchantId: string): Promise<TransactionStatusRow | null> {
  const { pool, onQuery, namedStatements } = rawAccessOf(db);
  onQuery?.(STATUS_READ.text);
  const result = await pool.query<TransactionStatusRow>({ ...(namedStatements ? NAMED_STATUS_READ : STATUS_READ), values: [id, merchantId] });
  return result.rows[0] ?? null;
}
