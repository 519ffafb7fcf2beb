import type { FailureCode } from '@mm/domain';

/**
 * MTN's reasons for a FAILED request to pay (or refund, transfer), as our result. 'canceled' = the payer's side
 * (the customer, their wallet, their limits); 'KO' = the operator or our merchant account refused.
 * Sources: operators-reference.md (M3, M6), sparkplug/momoapi-node FailureReason (PAYMENT_NOT_APPROVED, TRANSACTION_CANCELED).
 */
export const MTN_REASONS: Readonly<Record<string, { state: 'canceled' | 'KO'; failureCode: FailureCode }>> = {
  PAYER_NOT_FOUND: { state: 'canceled', failureCode: 'PAYER_NOT_FOUND' },
  NOT_ENOUGH_FUNDS: { state: 'canceled', failureCode: 'INSUFFICIENT_BALANCE' },
  PAYER_LIMIT_REACHED: { state: 'canceled', failureCode: 'THRESHOLD_REACHED' },
  // The payer's wallet exists but may not be debited: the payer's side, and no cause of ours fits better.
  SENDER_ACCOUNT_NOT_ACTIVE: { state: 'canceled', failureCode: 'OPERATOR_REJECTED' },
  APPROVAL_REJECTED: { state: 'canceled', failureCode: 'CUSTOMER_DID_NOT_VALIDATE' },
  EXPIRED: { state: 'canceled', failureCode: 'CUSTOMER_DID_NOT_VALIDATE' },
  // "Not approved within 5 minutes" (M3): the customer did not answer.
  COULD_NOT_PERFORM_TRANSACTION: { state: 'canceled', failureCode: 'CUSTOMER_DID_NOT_VALIDATE' },
  PAYMENT_NOT_APPROVED: { state: 'canceled', failureCode: 'CUSTOMER_DID_NOT_VALIDATE' },
  TRANSACTION_CANCELED: { state: 'canceled', failureCode: 'CUSTOMER_DID_NOT_VALIDATE' },
  // MTN's catch-all: "most prevalent" cause insufficient funds (M6), but not only. Telling a merchant
  // "insufficient balance" for what may be a PIN, a blocked wallet or an MTN fault would be a guess shown
  // as a fact; the operator's code stays in provider_txn_status for whoever needs the detail.
  INTERNAL_PROCESSING_ERROR: { state: 'KO', failureCode: 'UNKNOWN' },
  NOT_ALLOWED: { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
  NOT_ALLOWED_TARGET_ENVIRONMENT: { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
  INVALID_CURRENCY: { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
  // A FAILED status saying so: decided by MTN, not an unknown outcome.
  SERVICE_UNAVAILABLE: { state: 'KO', failureCode: 'OPERATOR_UNAVAILABLE' },
  // The payee of a request to pay is our merchant account: its refusal is the operator's, not the payer's.
  PAYEE_NOT_FOUND: { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
  PAYEE_NOT_ALLOWED_TO_RECEIVE: { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
};

/** A FAILED without a reason, or with one this table does not know (MTN keeps adding them, M6). */
export const UNKNOWN_REASON = { state: 'KO', failureCode: 'UNKNOWN' } as const;

/**
 * Codes MTN answers with HTTP 500 that refuse the request itself (M3: callback host, target environment,
 * currency, permissions, unknown party): nothing was created and sending it again will not change that, so
 * they are refusals, not outages. Any other 500 (INTERNAL_PROCESSING_ERROR, none) is an unknown outcome.
 */
export const REFUSING_500_CODES: ReadonlySet<string> = new Set([
  'INVALID_CALLBACK_URL_HOST',
  'NOT_ALLOWED',
  'NOT_ALLOWED_TARGET_ENVIRONMENT',
  'INVALID_CURRENCY',
  'PAYER_NOT_FOUND',
  'PAYEE_NOT_FOUND',
  'PAYEE_NOT_ALLOWED_TO_RECEIVE',
]);
