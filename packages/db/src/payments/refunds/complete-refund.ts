import { refundPosting, refundStatusChangedPayload } from '@mm/domain';
import type { Tx } from '../../database/index.js';
import type { Refund } from '../../generated/prisma/client.js';
import { post } from '../../ledger/index.js';
import type { OutboxRow } from '../../outbox/index.js';
import { transition, type TransitionOutcome } from '../moves/transition.js';
import { recordWebhookEvent } from '../../webhooks/index.js';
import { completeLateSuccessReturn, LATE_SUCCESS_ORIGIN } from './late-success-return.js';
import { refundSnapshotOf } from './refund-snapshot.js';

export type RefundOutcome =
  { status: 'SUCCESS'; providerRefundId: string } | { status: 'FAILED'; failureReason: string };

export interface CompletedRefund {
  refund: Refund;
  /** The transaction's move to REVERSED when this refund completed the full amount. */
  reversed: TransitionOutcome | null;
  outbox: OutboxRow[];
}

/**
 * Records the operator's answer to a refund: PENDING -> SUCCESS pays the reservation out (and
 * reverses the cash-in once refunds cover it all); PENDING -> FAILED releases it. A refund already
 * decided is left alone (null): duplicate runs are harmless. The return of a late success (origin
 * LATE_SUCCESS) is recorded apart: it is not the merchant's (completeLateSuccessReturn).
 */
export async function completeRefund(
  tx: Tx,
  refundId: string,
  outcome: RefundOutcome,
  now = new Date(),
): Promise<CompletedRefund | null> {
  const pending = await tx.refund.findUnique({ where: { id: refundId } });
  if (!pending) return null;
  if (pending.origin === LATE_SUCCESS_ORIGIN) {
    const refund = await completeLateSuccessReturn(tx, pending, outcome, now);
    return refund ? { refund, reversed: null, outbox: [] } : null;
  }
  // Same lock order as transition(): the transaction row first, so its events stay in order.
  const [t] = await tx.$queryRaw<{ merchant_order_id: string; country_code: string; notify_url: string | null }[]>`
    SELECT merchant_order_id, country_code, notify_url FROM transactions WHERE id = ${pending.transactionId}::uuid FOR UPDATE`;
  if (!t) return null;
  const { count } = await tx.refund.updateMany({
    where: { id: refundId, status: 'PENDING' },
    data:
      outcome.status === 'SUCCESS'
        ? { status: 'SUCCESS', providerRefundId: outcome.providerRefundId, updatedAt: now, completedAt: now }
        : { status: 'FAILED', failureReason: outcome.failureReason, updatedAt: now, completedAt: now },
  });
  if (count !== 1) return null;
  const refund = await tx.refund.findUniqueOrThrow({ where: { id: refundId } });
  const amount = Number(refund.amount);
  const scope = { merchantId: refund.merchantId, countryCode: t.country_code, currency: refund.currency };

  let fullyRefunded = false;
  if (outcome.status === 'SUCCESS') {
    await post(tx, scope, refundPosting('SUCCEEDED', amount), refund.transactionId, refund.id);
    const [after] = await tx.$queryRaw<{ refunded_amount: bigint; amount: bigint }[]>`
      UPDATE transactions SET refunded_amount = refunded_amount + ${amount}, updated_at = ${now}
       WHERE id = ${refund.transactionId}::uuid RETURNING refunded_amount, amount`;
    fullyRefunded = after !== undefined && after.refunded_amount === after.amount;
  } else {
    await post(tx, scope, refundPosting('FAILED', amount), refund.transactionId, refund.id);
    await tx.$executeRaw`
      UPDATE transactions SET refund_reserved_amount = refund_reserved_amount - ${amount}, updated_at = ${now}
       WHERE id = ${refund.transactionId}::uuid`;
  }

  const merchant = await tx.merchant.findUniqueOrThrow({
    where: { id: refund.merchantId },
    select: { webhookUrl: true },
  });
  const event = await recordWebhookEvent(tx, {
    merchantId: refund.merchantId,
    transactionId: refund.transactionId,
    refundId: refund.id,
    eventType: 'refund.status_changed',
    targetUrl: t.notify_url ?? merchant.webhookUrl,
    buildPayload: (eventId) => refundStatusChangedPayload(refundSnapshotOf(refund, t.merchant_order_id), eventId, now),
  });
  // After the refund's own event, so the merchant hears of the refund before the reversal.
  const reversed = fullyRefunded
    ? await transition(tx, { transactionId: refund.transactionId, to: 'REVERSED', cause: 'fully-refunded', now })
    : null;
  const outbox = [...(event ? [event] : []), ...(reversed?.outbox ?? [])];
  return { refund, reversed, outbox };
}
