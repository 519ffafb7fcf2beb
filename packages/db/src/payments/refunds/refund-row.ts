import { Prisma, type Refund } from '../../generated/prisma/client.js';

/**
 * Every column of `refunds` under its Prisma field name, for statements that return a whole refund
 * in a pg transaction (runPgTransaction), where the model API does not run. refund-row.test.ts
 * compares it with Prisma's own read: a column added to the schema and not here fails that test.
 */
const FIELDS: Record<keyof Refund, string> = {
  id: 'id',
  transactionId: 'transaction_id',
  merchantId: 'merchant_id',
  amount: 'amount',
  currency: 'currency',
  reason: 'reason',
  status: 'status',
  failureReason: 'failure_reason',
  providerReference: 'provider_reference',
  providerRefundId: 'provider_refund_id',
  idempotencyKey: 'idempotency_key',
  requestFingerprint: 'request_fingerprint',
  requestSignatureHash: 'request_signature_hash',
  origin: 'origin',
  originalProviderTxId: 'original_provider_tx_id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  completedAt: 'completed_at',
};

/** `id, transaction_id AS "transactionId", …`: a select or RETURNING list that reads a whole row as a Refund. */
export const REFUND_COLUMNS = Prisma.raw(
  Object.entries(FIELDS)
    .map(([field, column]) => `${column} AS "${field}"`)
    .join(', '),
);
