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
