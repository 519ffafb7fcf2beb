import { refundRecord } from '@mm/domain';
import type { Db } from '@mm/db';
import { createRefund, refundSnapshotOf, type NewRefund } from '@mm/db/payments';
import type { AfterCommit } from '@mm/queues';
import { requestFingerprint } from '../orders/request-fingerprint.js';
import type { RefundBody } from './refund-body.js';

export interface RequestRefundDeps {
  db: Db;
  /** Publishes the refund's job once committed (the outbox relay does, should this fail). */
  afterCommit: AfterCommit;
}

/**
 * decisions 5: accepts a refund of a SUCCESS cash-in (reserving its amount) and hands it to the
 * refund worker. The answer is the refund record, PENDING until the operator has paid it.
 */
export async function requestRefund(
  deps: RequestRefundDeps,
  merchantId: string,
  body: RefundBody,
  idempotencyKey: string | null,
  signatureHash: string,
  /** The audit row, in the refund's transaction, of a refund a person asked for (the portal's). */
  audit?: NewRefund['audit'],
): Promise<{ replayed: boolean; record: Record<string, unknown> }> {
  const result = await createRefund(deps.db, {
    merchantId,
    transactionId: body.transaction_id,
    amount: body.amount ?? null,
    reason: body.reason ?? null,
    idempotencyKey,
    requestFingerprint: requestFingerprint({
      transaction_id: body.transaction_id,
      amount: body.amount ?? null,
      reason: body.reason ?? null,
    }),
    requestSignatureHash: signatureHash,
    ...(audit ? { audit } : {}),
  });
  if (result.kind === 'created') {
    await deps.afterCommit.run([
      { transaction: { id: body.transaction_id, status: 'SUCCESS' }, outbox: result.outbox },
    ]);
  }
  return {
    replayed: result.kind === 'replayed',
    record: refundRecord(refundSnapshotOf(result.refund, result.merchantOrderId)),
  };
}
