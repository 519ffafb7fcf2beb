/** Error codes of decisions.md section 3; each one's HTTP status is in error-status.ts. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'AUTHENTICATION_REQUIRED',
  'INVALID_API_KEY',
  'INVALID_SIGNATURE',
  'TIMESTAMP_OUT_OF_TOLERANCE',
  'REQUEST_REPLAYED',
  'MERCHANT_DISABLED',
  'NOT_FOUND',
  'DUPLICATE_ORDER_ID',
  'INVALID_STATE',
  'INSUFFICIENT_BALANCE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'COUNTRY_NOT_SUPPORTED',
  'CURRENCY_MISMATCH',
  'AMOUNT_OUT_OF_RANGE',
  'REFUND_EXCEEDS_AMOUNT',
  'RATE_LIMITED',
  'DISBURSEMENT_NOT_CONFIGURED',
  'OPERATOR_UNAVAILABLE',
  'INTERNAL_ERROR',
  'IDEMPOTENCY_KEY_REUSED',
  'OPERATOR_NOT_SUPPORTED',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldIssue {
  field: string;
  issue: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldIssue[],
    /** Seconds the client should wait before trying again (sent as Retry-After), for errors that pass. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
