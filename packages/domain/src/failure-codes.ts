export const FAILURE_CODES = [
  'INSUFFICIENT_BALANCE',
  'INVALID_SECRET_CODE',
  'THRESHOLD_REACHED',
  'CUSTOMER_DID_NOT_VALIDATE',
  'OPERATOR_REJECTED',
  'OPERATOR_UNAVAILABLE',
  'REJECTED_BY_APPROVER',
  'UNKNOWN',
  // Added with the real operators: the payer's number has no wallet at that operator (MTN PAYER_NOT_FOUND).
  'PAYER_NOT_FOUND',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** Normalises the operator's precise cause (failure_reason under txn status 54321). */
export function failureCodeForCause(cause: string | null): FailureCode {
  if (cause === '60019') return 'INSUFFICIENT_BALANCE';
  if (cause === '00017') return 'INVALID_SECRET_CODE';
  if (cause !== null && /^\d+$/.test(cause)) {
    const n = Number(cause);
    if (n >= 100004 && n <= 100090) return 'THRESHOLD_REACHED';
  }
  return 'UNKNOWN';
}
