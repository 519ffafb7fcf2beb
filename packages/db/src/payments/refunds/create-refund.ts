import { randomUUID } from 'node:crypto';
import { DomainError, refundPosting, requestReplayed } from '@mm/domain';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Db } from '../../database/index.js';
import { runTransaction, isUniqueViolation, violatedUniqueIndex } from '../../database/index.js';
import type { Refund } from '../../generated/prisma/client.js';
import { isOverdraft, post } from '../../ledger/index.js';
import { insertOutbox, type OutboxRow } from '../../outbox/index.js';
import { recordAudit, type AuditInput } from '../../staff/index.js';
import { newProviderReference } from '../provider-reference.js';

export const REFUND_REQUEST_TOPIC = QUEUE_NAMES.refundRequests;

/** The partial unique index on refunds.request_signature_hash (migration 20261129000000). */
const SIGNATURE_INDEX = 'refunds_request_signature_key';

export interface NewRefund {
  merchantId: string;
  transactionId: string;
  /** Omitted: the whole transaction amount (docs/interface.md). */
  amount: number | null;
  reason: string | null;
  idempotencyKey: string | null;
  requestFingerprint: string;
  /**
   * SHA-256 (hex) of the API key and signature of the request asking for it (the gateway's
   * signedRequestHash): the same signed request again is REQUEST_REPLAYED, even once Redis has
   * forgotten it. Absent for a refund no signed request asked for (tools, tests).
   */
  requestSignatureHash?: string | null;
  /**
   * The audit row of a refund a person asked for (the merchant portal), written in the refund's own
   * transaction: the refund and its row exist together or not at all. Not called for a replay.
   */
  audit?: (refund: Refund) => AuditInput;
}

export type CreateRefundResult =
  | { kind: 'created'; refund: Refund; merchantOrderId: string; outbox: OutboxRow[] }
  | { kind: 'replayed'; refund: Refund; merchantOrderId: string };

/**
 * Accepts a refund in one database transaction: the room left on the transaction is taken by a
 * conditional update (two concurrent refunds can never exceed the amount), the amount is reserved
 * from the available balance (the ledger's CHECK refuses an overdraft), and the refund request is
 * queued through the outbox.
 */
export async function createRefund(db: Db, input: NewRefund): Promise<CreateRefundResult> {
  try {
    // A refund sent without Idempotency-Key cannot be told from a new one when it is sent again: a COMMIT
    // in doubt is asked about, not answered "try again". With a key, trying again is safe.
    return await runTransaction(
      db,
      async (tx) => {
        const [t] = await tx.$queryRaw<
          {
            id: string;
            type: string;
            status: string;
            amount: bigint;
            currency: string;
            country_code: string;
            merchant_order_id: string;
          }[]
        >`
        SELECT id, type, status, amount, currency, country_code, merchant_order_id FROM transactions
         WHERE id = ${input.transactionId}::uuid AND merchant_id = ${input.merchantId}::uuid FOR UPDATE`;
        if (!t) throw new DomainError('NOT_FOUND', 'no transaction with this id');
        // First, as the Redis guard answers before anything else: whatever happened since (the refund
        // paid and the cash-in REVERSED, its Idempotency-Key now naming it), the same signed request is a
        // replay. Under the transaction's lock, so a replay racing its original finds it committed.
        if (
          input.requestSignatureHash &&
          (await tx.refund.findFirst({
            where: { requestSignatureHash: input.requestSignatureHash },
            select: { id: true },
          }))
        ) {
          throw requestReplayed();
        }

        if (input.idempotencyKey) {
          const existing = await tx.refund.findFirst({
            where: { merchantId: input.merchantId, idempotencyKey: input.idempotencyKey },
          });
          if (existing) {
            if (existing.requestFingerprint !== input.requestFingerprint) {
              throw new DomainError(
                'IDEMPOTENCY_KEY_REUSED',
                'this Idempotency-Key was already used with a different request',
              );
            }
            return { kind: 'replayed' as const, refund: existing, merchantOrderId: t.merchant_order_id };
          }
        }
        // A cash-out paid money out: there is nothing of the customer's to give back (decisions 5: cash-ins only).
        if (t.type !== 'CASHIN')
          throw new DomainError('INVALID_STATE', 'only a cash-in can be refunded; this is a cash-out');
        if (t.status !== 'SUCCESS')
          throw new DomainError('INVALID_STATE', `only a SUCCESS cash-in can be refunded; this one is ${t.status}`);
        const amount = input.amount ?? Number(t.amount);
        const room = await tx.$executeRaw`
        UPDATE transactions SET refund_reserved_amount = refund_reserved_amount + ${amount}, updated_at = now()
         WHERE id = ${t.id}::uuid AND status = 'SUCCESS' AND refund_reserved_amount + ${amount} <= amount`;
        if (room !== 1)
          throw new DomainError('REFUND_EXCEEDS_AMOUNT', 'refunds would exceed the amount of the transaction');

        const id = randomUUID();
        const refund = await tx.refund.create({
          data: {
            id,
            transactionId: t.id,
            merchantId: input.merchantId,
            amount: BigInt(amount),
            currency: t.currency,
            reason: input.reason,
            status: 'PENDING',
            providerReference: newProviderReference('RF'),
            idempotencyKey: input.idempotencyKey,
            requestFingerprint: input.requestFingerprint,
            requestSignatureHash: input.requestSignatureHash ?? null,
          },
        });
        const row = await insertOutbox(tx, { topic: REFUND_REQUEST_TOPIC, payload: { refund_id: id } });
        // The merchant's balance rows move while this transaction commits (post()); an overdraft is
        // refused then, and caught below like any other failure of the transaction.
        await post(
          tx,
          { merchantId: input.merchantId, countryCode: t.country_code, currency: t.currency },
          refundPosting('ACCEPTED', amount),
          t.id,
          id,
        );
        if (input.audit) await recordAudit(tx, input.audit(refund));
        return { kind: 'created' as const, refund, merchantOrderId: t.merchant_order_id, outbox: [row] };
      },
      { resolveInDoubtCommit: !input.idempotencyKey },
    );
  } catch (err) {
    if (isOverdraft(err))
      throw new DomainError('INSUFFICIENT_BALANCE', 'the available balance of this subsidiary cannot cover the refund');
    // The look-up above finds a replay first; the unique index is what guarantees it. All rolled back.
    if (violatedUniqueIndex(err) === SIGNATURE_INDEX) throw requestReplayed();
    // The same Idempotency-Key raced in on another transaction row: the first one won.
    if (input.idempotencyKey && isUniqueViolation(err)) {
      const existing = await db.refund.findFirst({
        where: { merchantId: input.merchantId, idempotencyKey: input.idempotencyKey },
        include: { transaction: { select: { merchantOrderId: true } } },
      });
      if (existing && existing.requestFingerprint === input.requestFingerprint) {
        return { kind: 'replayed', refund: existing, merchantOrderId: existing.transaction.merchantOrderId };
      }
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used with a different request');
    }
    throw err;
  }
}
