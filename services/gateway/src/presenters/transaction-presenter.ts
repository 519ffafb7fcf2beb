import { paymentMethod, providerState } from '@mm/collections';
import { maskMsisdn } from '@mm/domain';
import type { Transaction } from '@mm/db';

export { paymentMethod, providerState };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What the status response reads of a transaction (the export selects these but customerAction, plus a few). */
export type StatusFields = Pick<
  Transaction,
  | 'id'
  | 'merchantOrderId'
  | 'type'
  | 'status'
  | 'amount'
  | 'currency'
  | 'countryCode'
  | 'providerReference'
  | 'providerTxId'
  | 'providerSessionId'
  | 'providerState'
  | 'providerTxnStatus'
  | 'failureCode'
  | 'failureReason'
  | 'refundedAmount'
  | 'completedAt'
  | 'operator'
  | 'customerAction'
  | 'paymentLinkId'
>;

/** What the customer must do to pay a cash-in (the operator adapters' CustomerAction, as the API shows it). */
export type CustomerActionField = { type: 'NONE' } | { type: 'REDIRECT'; url: string } | { type: 'OTP'; ussd: string };

/**
 * A cash-in's `customer_action` (additive field): null until the operator has acknowledged the push
 * (CREATED, INITIATED), then the action stored from the operator's acknowledgement, or NONE when it
 * gave none (a plain USSD push, the simulator's: the phone rings, nothing to do on the page). A
 * cash-out asks nothing of anyone: always null.
 */
export function customerAction(t: Pick<Transaction, 'type' | 'status' | 'customerAction'>): CustomerActionField | null {
  if (t.type !== 'CASHIN' || t.status === 'CREATED' || t.status === 'INITIATED') return null;
  const stored = t.customerAction as { type?: unknown; url?: unknown; ussd?: unknown } | null;
  // Only the documented shapes leave the service, with their own fields only.
  if (stored?.type === 'REDIRECT' && typeof stored.url === 'string') return { type: 'REDIRECT', url: stored.url };
  if (stored?.type === 'OTP' && typeof stored.ussd === 'string') return { type: 'OTP', ussd: stored.ussd };
  return { type: 'NONE' };
}

function common(t: StatusFields) {
  return {
    transaction_id: t.id,
    merchant_order_id: t.merchantOrderId,
    type: t.type,
    status: t.status,
    amount: Number(t.amount),
    currency: t.currency,
    country_code: t.countryCode,
  };
}

/** The field set of the interface's cash-in (202) response (docs/interface.md), plus failure_code/failure_reason/refunded_amount, operator and customer_action. */
export function presentCashinResponse(t: Transaction, paymentUrl: string) {
  return {
    ...common(t),
    msisdn: maskMsisdn(t.msisdn),
    payment_method: 'USSD_PUSH',
    payment_url: paymentUrl,
    provider_reference: t.providerReference,
    provider_tx_id: t.providerTxId,
    // The spec: null in the cash-in response (the session is reported by the status read).
    provider_session_id: null,
    provider_state: providerState(t),
    provider_txn_status: t.providerTxnStatus,
    failure_code: t.failureCode,
    failure_reason: t.failureReason,
    refunded_amount: Number(t.refundedAmount),
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    // Additive fields (after the interface's).
    operator: t.operator,
    customer_action: customerAction(t),
  };
}

/** A cash-out (decisions 7; the interface shows no field set): the cash-in's fields that apply, the beneficiary masked. */
export function presentCashoutResponse(t: Transaction) {
  return {
    ...common(t),
    beneficiary_msisdn: maskMsisdn(t.msisdn),
    payment_method: paymentMethod(t),
    reason: t.motif,
    provider_reference: t.providerReference,
    provider_tx_id: t.providerTxId,
    failure_code: t.failureCode,
    failure_reason: t.failureReason,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    // Additive; no customer_action: a transfer asks nothing of the beneficiary.
    operator: t.operator,
  };
}

/**
 * The field set of the interface's status (GET) response (docs/interface.md), plus failure_code/failure_reason/refunded_amount, operator and customer_action.
 * One literal (common()'s fields written out, in its order): the API's most frequent answer.
 */
export function presentStatusResponse(t: StatusFields) {
  return {
    transaction_id: t.id,
    merchant_order_id: t.merchantOrderId,
    type: t.type,
    status: t.status,
    amount: Number(t.amount),
    currency: t.currency,
    country_code: t.countryCode,
    payment_method: paymentMethod(t),
    provider_reference: t.providerReference,
    provider_tx_id: t.providerTxId,
    provider_session_id: t.providerSessionId,
    provider_state: providerState(t),
    provider_txn_status: t.providerTxnStatus,
    failure_code: t.failureCode,
    failure_reason: t.failureReason,
    refunded_amount: Number(t.refundedAmount),
    completed_at: iso(t.completedAt),
    // Additive fields (after the interface's); customer_action is null for a cash-out.
    operator: t.operator,
    customer_action: customerAction(t),
    payment_link_id: t.paymentLinkId,
  };
}
