import type { Transaction } from '@mm/db';
import type { AcknowledgedFields } from '@mm/queues';

/**
 * The cash-in as its acknowledgement left it: the row the gateway created, with the fields that the
 * move out of CREATED/INITIATED could change taken from its announcement. Nothing else of a cash-in
 * changes before that move, so this is the row the move committed, without reading it back.
 */
export function acknowledgedCashin(created: Transaction, fields: AcknowledgedFields): Transaction {
  return { ...created, ...fields, customerAction: fields.customerAction as Transaction['customerAction'] };
}
