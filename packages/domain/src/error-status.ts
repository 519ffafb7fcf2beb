import type { ErrorCode } from './errors.js';

/**
 * The HTTP status of every error code (decisions 3): part of the API's contract like the code itself.
 * The one table, which the gateway answers with and the OpenAPI document's error responses are built
 * from, so the two cannot disagree. Here, beside ERROR_CODES, because both depend on this package and
 * neither may depend on the other: the gateway serves the document. A code added without its status
 * does not compile.
 */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  AUTHENTICATION_REQUIRED: 401,
  INVALID_API_KEY: 401,
  INVALID_SIGNATURE: 401,
  TIMESTAMP_OUT_OF_TOLERANCE: 401,
  REQUEST_REPLAYED: 401,
  MERCHANT_DISABLED: 403,
  NOT_FOUND: 404,
  DUPLICATE_ORDER_ID: 409,
  INVALID_STATE: 409,
  INSUFFICIENT_BALANCE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  COUNTRY_NOT_SUPPORTED: 422,
  OPERATOR_NOT_SUPPORTED: 422,
  CURRENCY_MISMATCH: 422,
  AMOUNT_OUT_OF_RANGE: 422,
  REFUND_EXCEEDS_AMOUNT: 422,
  RATE_LIMITED: 429,
  DISBURSEMENT_NOT_CONFIGURED: 501,
  OPERATOR_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};
