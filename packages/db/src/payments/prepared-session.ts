import type { Db } from '../database/index.js';

/**
 * The operator's own id for a cash-in it does not dedupe on our reference (Orange mp's pay token), kept
 * once while the cash-in is INITIATED and before its push, so a push run again (a retry, a stalled job)
 * reuses it and never makes a second payment. A concurrent run that stored one first wins: its id is
 * returned. Throws when the cash-in moved on without one: the push must not be sent.
 */
export async function storePreparedSession(db: Db, transactionId: string, providerSessionId: string): Promise<string> {
  const { count } = await db.transaction.updateMany({
    where: { id: transactionId, status: 'INITIATED', providerSessionId: null },
    data: { providerSessionId, updatedAt: new Date() },
  });
  if (count === 1) return providerSessionId;
  const stored = await db.transaction.findUnique({ where: { id: transactionId }, select: { providerSessionId: true } });
  if (!stored?.providerSessionId)
    throw new Error(`cash-in ${transactionId} moved on while its operator session was prepared`);
  return stored.providerSessionId;
}
