/**
 * Tests' days of movements: cash-ins in the state a day left them, created at a chosen time, and an
 * operator that lists its own records of the day (the adapter's listRecords) and confirms late successes.
 */
import type { Job } from 'bullmq';
import type { Db } from '@mm/db';
import { createCashin, transition } from '@mm/db/payments';
import type { OperatorRecord, TransactionStatus } from '@mm/domain';
import { NOT_FOUND_AT_OPERATOR, type OperatorAdapter } from '@mm/operators';
import { failingOperator } from '@mm/operators/testing';

export interface DayCashin {
  id: string;
  reference: string;
}

/**
 * A CI cash-in of `amount` XOF that ended `status`, created at `at`; its push job marked done (no relay runs
 * it) and its webhook delivered, as they were long before the day is reconciled (a later event is held
 * while an earlier one of the same payment is still being delivered).
 */
export async function cashinOfDay(
  db: Db,
  merchantId: string,
  o: { order: string; amount: number; status: TransactionStatus; at: string; operator?: string },
): Promise<DayCashin> {
  const c = await createCashin(db, {
    merchantId,
    merchantOrderId: o.order,
    amount: o.amount,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000001',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: o.order,
    operator: o.operator ?? 'SIMULATOR',
  });
  if (c.kind !== 'created') throw new Error('not created');
  const id = c.transaction.id;
  await db.$transaction(async (tx) => {
    for (const to of ['INITIATED', 'PENDING'] as const) await transition(tx, { transactionId: id, to, cause: 'test' });
    if (o.status !== 'PENDING') {
      await transition(tx, {
        transactionId: id,
        to: o.status,
        cause: 'test',
        patch:
          o.status === 'SUCCESS'
            ? { providerState: 'OK', providerTxnStatus: '200', providerTxId: `OP-${o.order}` }
            : {},
      });
    }
  });
  await db.$executeRaw`UPDATE transactions SET created_at = ${new Date(o.at)} WHERE id = ${id}::uuid`;
  await db.$executeRaw`UPDATE outbox SET completed_at = now() WHERE topic = 'operator-requests' AND payload->>'transaction_id' = ${id}`;
  await db.$executeRaw`
    UPDATE outbox SET completed_at = now() WHERE topic = 'webhook-deliveries' AND id IN (SELECT id FROM webhook_events WHERE transaction_id = ${id}::uuid)`;
  await db.$executeRaw`UPDATE webhook_events SET status = 'DELIVERED', next_attempt_at = NULL WHERE transaction_id = ${id}::uuid`;
  return { id, reference: c.transaction.providerReference };
}

/** The operator's record of a cash-in it collected. */
export const collected = (
  reference: string | null,
  amount: number,
  operatorTxId: string | null = null,
): OperatorRecord => ({
  kind: 'CASHIN',
  reference,
  operatorTxId,
  amount,
  currency: 'XOF',
  outcome: 'SUCCESS',
});

/**
 * An operator whose list of a day is `records(date)` (two per page) and whose status query confirms the
 * references of `paid` (OK, 200) and knows no other. The pages asked for are kept.
 */
export function listingOperator(
  records: (date: string) => OperatorRecord[],
  paid: () => ReadonlySet<string>,
): OperatorAdapter & { pages: string[] } {
  const pages: string[] = [];
  return {
    ...failingOperator(new Error('not expected in a reconciliation')),
    name: 'listing',
    pages,
    listRecords: async (date, cursor) => {
      pages.push(`${date}@${cursor ?? 0}`);
      const start = Number(cursor ?? 0);
      const all = records(date);
      return { records: all.slice(start, start + 2), next: start + 2 < all.length ? String(start + 2) : null };
    },
    queryStatus: async (lookup) =>
      paid().has(lookup.partnerReference)
        ? {
            found: true,
            providerState: 'OK',
            providerTxnStatus: '200',
            providerTxId: `OP-LATE-${lookup.partnerReference}`,
            failureReason: null,
          }
        : { ...NOT_FOUND_AT_OPERATOR },
  };
}

/** A job as BullMQ hands it over: added at `timestamp` (a scheduler's occurrence in its id when `scheduler`). */
export function jobOf(o: {
  timestamp: number;
  attemptsMade?: number;
  attempts?: number;
  id?: string;
  scheduler?: string;
}): Job {
  return {
    id: o.id ?? 'manual-1',
    timestamp: o.timestamp,
    repeatJobKey: o.scheduler,
    attemptsMade: o.attemptsMade ?? 0,
    opts: { attempts: o.attempts ?? 5 },
  } as unknown as Job;
}
