/** The operator's wire format, as a real operator documents it (snake_case, states as the operator spells them). */
export type WireState = 'PENDING' | 'OK' | 'canceled' | 'KO';

/** A push's result fields: exactly what GET /v1/payments/:ref and the callback carry. */
export interface WireResult {
  state: WireState;
  txn_status: string | null;
  provider_tx_id: string | null;
  failure_reason: string | null;
}

export interface PushRequestBody {
  partner_reference: string;
  msisdn: string;
  amount: number;
  currency: string;
  motif: string | null;
  callback_url: string;
}

export interface CallbackBody extends WireResult {
  partner_reference: string;
  session_id: string | null;
}

export interface RefundRequestBody {
  partner_reference: string;
  /** The partner_reference of the cash-in being refunded. */
  original_partner_reference: string;
  amount: number;
  currency: string;
}

/**
 * Every answer POST /v1/refunds can record. 200 carries the refund's result; 404 and 409 say the original
 * cannot be refunded at all. The first answer for a partner_reference is kept and replayed verbatim.
 */
export type RefundAnswer =
  | { status: 200; body: { state: 'OK'; refund_id: string } }
  | { status: 200; body: { state: 'FAILED'; reason: RefundFailureReason } }
  | { status: 404; body: { error: 'unknown_transaction' } }
  | { status: 409; body: { error: 'not_refundable' } };

export type RefundFailureReason = 'AMOUNT_EXCEEDS_REFUNDABLE' | 'REFUND_REJECTED';

export interface DisbursementRequestBody {
  partner_reference: string;
  /** The beneficiary: the wallet the money is paid into. */
  msisdn: string;
  amount: number;
  currency: string;
  /** Shown on the beneficiary's statement; optional on the wire. */
  reason: string | null;
}

/**
 * Every answer POST /v1/disbursements can record: always a 200, the result is in the body. The first answer for
 * a partner_reference is kept and replayed verbatim.
 */
export type DisbursementAnswer =
  { state: 'OK'; disbursement_id: string } | { state: 'FAILED'; reason: DisbursementFailureReason };

export type DisbursementFailureReason = 'BENEFICIARY_NOT_FOUND' | 'BENEFICIARY_LIMIT_EXCEEDED';
