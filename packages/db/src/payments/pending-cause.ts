import type { Db, Tx } from '../database/index.js';

/**
 * The cause of a cash-in's latest move to PENDING (PENDING_CAUSES of @mm/domain: what the bridge recorded about
 * its push), null when it has none. Read by the expiry check only when the operator says it does not know the
 * payment, never on the path every check takes.
 */
export async function pendingCauseOf(db: Db | Tx, transactionId: string): Promise<string | null> {
  const [event] = await db.$queryRaw<{ cause: string }[]>`
    SELECT cause FROM transaction_events WHERE transaction_id = ${transactionId}::uuid AND to_status = 'PENDING' ORDER BY id DESC LIMIT 1`;
  return event?.cause ?? null;
}
