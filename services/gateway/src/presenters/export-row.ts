import { maskMsisdn } from '@mm/domain';
import type { ExportedTransaction } from '@mm/db/export-transactions';
import { presentStatusResponse } from './transaction-presenter.js';

/**
 * decisions 8: one exported transaction is the status response (GET /payments/{id}) plus the masked
 * customer number, the failure details, the refunded amount and both timestamps.
 */
export function presentExportRow(t: ExportedTransaction) {
  return {
    ...presentStatusResponse(t),
    msisdn: maskMsisdn(t.msisdn),
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

export type ExportRow = ReturnType<typeof presentExportRow>;

/** CSV columns, in the order of the JSON row's keys. */
export const EXPORT_COLUMNS = [
  'transaction_id', 'merchant_order_id', 'type', 'status', 'amount', 'currency', 'country_code', 'payment_method',
  'provider_reference', 'provider_tx_id', 'provider_session_id', 'provider_state', 'provider_txn_status',
  'failure_code', 'failure_reason', 'refunded_amount', 'completed_at', 'msisdn', 'created_at', 'updated_at',
] as const satisfies readonly (keyof ExportRow)[];
