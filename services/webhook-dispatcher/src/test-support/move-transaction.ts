import type { Db } from '@mm/db';
import type { OutboxRow } from '@mm/db/outbox';
import { transition } from '@mm/db/payments';
import type { TransactionStatus } from '@mm/domain';

/** Moves a test cash-in through the one real transition function, returning its outbox rows. */
export async function moveTransaction(db: Db, transactionId: string, to: TransactionStatus): Promise<OutboxRow[]> {
  const patch = to === 'SUCCESS' ? { providerTxId: `PTX${Date.now()}` } : {};
  const outcome = await db.$transaction((tx) =>
    transition(tx, { transactionId, to, cause: `test:${to.toLowerCase()}`, patch }),
  );
  if (!outcome) throw new Error(`transition to ${to} refused`);
  return outcome.outbox;
}
