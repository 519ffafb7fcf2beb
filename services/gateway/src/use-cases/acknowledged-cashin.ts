import type { Transaction } from '@mm/db';
import type { AcknowledgedFields } from '@mm/queues';

/**
 * The cash-in as its acknowledgement left it: the row the gateway created, with the fields that the
 * move out of CREATED/INITIATED could change taken from its announcement. Nothing else of a cash-in
 * changes before that move, so this is the row the move committed, without reading it back.
 */
export function acknowledgedCashin(created: Transaction, fields: AcknowledgedFields): Transaction {
  return {
    ...created,
    status: fields.status,
    providerTxId: fields.providerTxId,
    providerSessionId: fields.providerSessionId,
    providerState: fields.providerState,
    providerTxnStatus: fields.providerTxnStatus,
    failureCode: fields.failureCode,
    failureReason: fields.failureReason,
    customerAction: fields.customerAction as Transaction['customerAction'],
    updatedAt: fields.updatedAt,
    expiresAt: fields.expiresAt,
    completedAt: fields.completedAt,
  };
}
