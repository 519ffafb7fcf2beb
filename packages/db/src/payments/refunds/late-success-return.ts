import { randomUUID } from 'node:crypto';
import {
  lateSuccessPosting,
  returnsLateSuccess,
  type OperatorResult,
  type TransactionStatus,
  type TransactionType,
} from '@mm/domain';
import type { Tx } from '../../database/index.js';
import type { Refund } from '../../generated/prisma/client.js';
import { post } from '../../ledger/index.js';
import { insertOutbox, type OutboxRow } from '../../outbox/index.js';
import { newProviderReference } from '../provider-reference.js';
import { REFUND_REQUEST_TOPIC } from './create-refund.js';
import { REFUND_COLUMNS } from './refund-row.js';

export const LATE_SUCCESS_ORIGIN = 'LATE_SUCCESS';

export interface HeldLateSuccess {
  /** The return to the customer: a PENDING refund of origin LATE_SUCCESS, paid by the refund worker. */
  refund: Refund;
  outbox: OutboxRow[];
}

/**
 * The operator confirmed a payment that is FAILED here (decisions 13): its money is held in the country's
 * suspense account and a return of the whole amount to the customer is queued, through the outbox, to
 * the refund worker. Null, and nothing written, when the result is not such a late success, or when this
 * cash-in's return exists already (a repeated callback, a retried job, another bridge): under the
 * transaction row's lock, and the partial unique index refunds_late_success_key behind it.
 *
 * The transaction row itself is not changed: it stays FAILED as the merchant was told, with what the
 * operator said then; the late payment's id is kept on the return.
 */
export async function holdLateSuccess(
  tx: Tx,
  transactionId: string,
  result: Pick<OperatorResult, 'providerState' | 'providerTxnStatus' | 'providerTxId'>,
  now = new Date(),
): Promise<HeldLateSuccess | null> {
  // The row's lock first, as transition() and completeRefund() take it: one order for every writer.
  const [t] = await tx.$queryRaw<
    {
      type: TransactionType;
      status: TransactionStatus;
      merchant_id: string;
      amount: bigint;
      currency: string;
      country_code: string;
    }[]
  >`
    SELECT type, status, merchant_id, amount, currency, country_code FROM transactions WHERE id = ${transactionId}::uuid FOR UPDATE`;
  if (!t || !returnsLateSuccess(t, result)) return null;
  const id = randomUUID();
  const [refund] = await tx.$queryRaw<Refund[]>`
    INSERT INTO refunds (id, transaction_id, merchant_id, amount, currency, reason, status, provider_reference,
                         request_fingerprint, origin, original_provider_tx_id, created_at, updated_at)
    VALUES (${id}::uuid, ${transactionId}::uuid, ${t.merchant_id}::uuid, ${t.amount}, ${t.currency},
            'operator confirmed the payment after it FAILED: returned to the customer', 'PENDING', ${newProviderReference('RF')},
            ${`late-success:${transactionId}`}, ${LATE_SUCCESS_ORIGIN}, ${result.providerTxId}, ${now}, ${now})
    ON CONFLICT (transaction_id) WHERE origin = 'LATE_SUCCESS' DO NOTHING
    RETURNING ${REFUND_COLUMNS}`;
  if (!refund) return null;
  await post(
    tx,
    { merchantId: t.merchant_id, countryCode: t.country_code, currency: t.currency },
    lateSuccessPosting('HELD', Number(t.amount)),
    transactionId,
    id,
  );
  const row = await insertOutbox(tx, { topic: REFUND_REQUEST_TOPIC, payload: { refund_id: id } });
  return { refund, outbox: [row] };
}

/**
 * The operator's answer to a late success's return. SUCCESS: paid back, suspense back to zero for it.
 * FAILED: nothing is posted, the money stays in suspense, and the FAILED return is what a person sees
 * (back-office) and resolves. Neither is the merchant's business: no webhook, no change to the cash-in.
 * Null when the return was already decided (a duplicate run).
 */
export async function completeLateSuccessReturn(
  tx: Tx,
  refund: Refund,
  outcome: { status: 'SUCCESS'; providerRefundId: string } | { status: 'FAILED'; failureReason: string },
  now: Date,
): Promise<Refund | null> {
  const [t] = await tx.$queryRaw<{ country_code: string }[]>`
    SELECT country_code FROM transactions WHERE id = ${refund.transactionId}::uuid FOR UPDATE`;
  if (!t) return null;
  const { count } = await tx.refund.updateMany({
    where: { id: refund.id, status: 'PENDING' },
    data:
      outcome.status === 'SUCCESS'
        ? { status: 'SUCCESS', providerRefundId: outcome.providerRefundId, updatedAt: now, completedAt: now }
        : { status: 'FAILED', failureReason: outcome.failureReason, updatedAt: now, completedAt: now },
  });
  if (count !== 1) return null;
  if (outcome.status === 'SUCCESS') {
    await post(
      tx,
      { merchantId: refund.merchantId, countryCode: t.country_code, currency: refund.currency },
      lateSuccessPosting('RETURNED', Number(refund.amount)),
      refund.transactionId,
      refund.id,
    );
  }
  return tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
}
