import type { ErrorCode, FieldIssue } from './types.js';

/** Everything the SDK throws. */
export class MobileMoneyError extends Error {
  override name = 'MobileMoneyError';
  /** On an error of createRefund or createPaymentLink: the Idempotency-Key it sent, to retry the same request safely. */
  idempotencyKey?: string;
}

/** The API answered with an error body (`{"error": {code, message, details?, request_id}}`). */
export class ApiError extends MobileMoneyError {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** The X-Request-Id of the answer: quote it to support. */
    readonly requestId: string | null,
    /** With VALIDATION_ERROR: one entry per field. */
    readonly details: FieldIssue[] = [],
  ) {
    super(`${code}: ${message}`);
  }
}

/** 400, 413, 415: the request itself is wrong (VALIDATION_ERROR with `details`, INVALID_JSON, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE). */
export class InvalidRequestError extends ApiError {
  override name = 'InvalidRequestError';
}
/** 401: key, timestamp or signature refused (AUTHENTICATION_REQUIRED, INVALID_API_KEY, INVALID_SIGNATURE, TIMESTAMP_OUT_OF_TOLERANCE, REQUEST_REPLAYED). */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
/** 403 MERCHANT_DISABLED. */
export class MerchantDisabledError extends ApiError {
  override name = 'MerchantDisabledError';
}
/** 404 NOT_FOUND: unknown id, or another merchant's. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/** 409: DUPLICATE_ORDER_ID, INVALID_STATE, INSUFFICIENT_BALANCE, IDEMPOTENCY_KEY_REUSED. */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/** 422: COUNTRY_NOT_SUPPORTED, CURRENCY_MISMATCH, AMOUNT_OUT_OF_RANGE, REFUND_EXCEEDS_AMOUNT. */
export class UnprocessableError extends ApiError {
  override name = 'UnprocessableError';
}
/** 429 RATE_LIMITED (after the client's own retries, if any). */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    requestId: string | null,
    details: FieldIssue[],
    readonly retryAfterS: number,
  ) {
    super(status, code, message, requestId, details);
  }
}
/** 501 DISBURSEMENT_NOT_CONFIGURED: cash-out is off for this service. */
export class NotConfiguredError extends ApiError {
  override name = 'NotConfiguredError';
}
/** 5xx INTERNAL_ERROR and the like (after the client's own retries, if any). */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

/** No answer: the connection failed or the request timed out. The request may or may not have been processed. */
export class ConnectionError extends MobileMoneyError {
  override name = 'ConnectionError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/**
 * Why a webhook was not accepted. UNKNOWN_EVENT alone is genuine: signed by the service, but of an event
 * this version of the SDK does not know; answer 2xx (there is nothing to do with it) and upgrade. The
 * others must be refused with 401.
 */
export type WebhookRejection =
  'MISSING_HEADER' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'INVALID_SIGNATURE' | 'INVALID_PAYLOAD' | 'UNKNOWN_EVENT';

/** A webhook not accepted: not signed by the service, too old, not an event, or (UNKNOWN_EVENT) an event of a newer API. */
export class WebhookVerificationError extends MobileMoneyError {
  override name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookRejection,
    message: string,
  ) {
    super(message);
  }
}

type ApiErrorClass = new (
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string | null,
  details: FieldIssue[],
) => ApiError;

const BY_STATUS: Record<number, ApiErrorClass> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: MerchantDisabledError,
  404: NotFoundError,
  409: ConflictError,
  413: InvalidRequestError,
  415: InvalidRequestError,
  422: UnprocessableError,
  501: NotConfiguredError,
};

/** The typed error of an error answer; a body that is not the documented shape still becomes an ApiError. */
export function apiErrorOf(status: number, body: unknown, headers: Headers): ApiError {
  const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown; request_id?: unknown } } | null)
    ?.error;
  const code = (
    typeof e?.code === 'string' ? e.code : status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR'
  ) as ErrorCode;
  const message = typeof e?.message === 'string' ? e.message : `HTTP ${status}`;
  const requestId = typeof e?.request_id === 'string' ? e.request_id : headers.get('x-request-id');
  const details = Array.isArray(e?.details) ? (e.details as FieldIssue[]) : [];
  if (status === 429)
    return new RateLimitError(status, code, message, requestId, details, Number(headers.get('retry-after')) || 1);
  const Class = BY_STATUS[status] ?? (status >= 500 ? ServerError : ApiError);
  return new Class(status, code, message, requestId, details);
}
