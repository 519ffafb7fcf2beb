import { ERROR_CODES, type ErrorCode } from '@mm/domain';
import type { ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { rateLimitHeaders, requestIdHeader } from './headers.js';

/**
 * The HTTP status of every error code (decisions 3): the one table, which the gateway's error handler
 * answers with and the document's error responses are built from, so the two cannot disagree.
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
  CURRENCY_MISMATCH: 422,
  AMOUNT_OUT_OF_RANGE: 422,
  REFUND_EXCEEDS_AMOUNT: 422,
  RATE_LIMITED: 429,
  DISBURSEMENT_NOT_CONFIGURED: 501,
  OPERATOR_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

const codesWith = (status: number) => ERROR_CODES.filter((c) => ERROR_STATUS[c] === status);

/** One component response per error status, its `code` limited to the codes of that status. */
const ERROR_RESPONSES: Record<string, { status: number; description: string }> = {
  BadRequest: { status: 400, description: 'VALIDATION_ERROR (details name each field), or INVALID_JSON. Nothing was changed.' },
  Unauthorized: {
    status: 401,
    description: 'AUTHENTICATION_REQUIRED (a header missing), INVALID_API_KEY (unknown or revoked), TIMESTAMP_OUT_OF_TOLERANCE (more than 300 s off), '
      + 'INVALID_SIGNATURE, or REQUEST_REPLAYED (the same signed non-GET request again: sign every request anew, in a later second).',
  },
  Forbidden: { status: 403, description: 'MERCHANT_DISABLED.' },
  NotFound: { status: 404, description: "NOT_FOUND: an unknown id, another merchant's id and a malformed id alike." },
  Conflict: {
    status: 409,
    description: 'DUPLICATE_ORDER_ID (the order id was used with other parameters), INVALID_STATE (refund of a transaction that is not SUCCESS), '
      + 'INSUFFICIENT_BALANCE (refund or cash-out above the available balance), IDEMPOTENCY_KEY_REUSED (the same Idempotency-Key with another body).',
  },
  PayloadTooLarge: { status: 413, description: 'PAYLOAD_TOO_LARGE: the body exceeds 64 KiB.' },
  UnsupportedMediaType: { status: 415, description: 'UNSUPPORTED_MEDIA_TYPE: a body that is not application/json.' },
  Unprocessable: {
    status: 422,
    description: 'COUNTRY_NOT_SUPPORTED, CURRENCY_MISMATCH, AMOUNT_OUT_OF_RANGE, or REFUND_EXCEEDS_AMOUNT (refunds not FAILED would exceed the amount).',
  },
  RateLimited: { status: 429, description: 'RATE_LIMITED: the per-merchant limit (50 requests/s, bursts of 100). Wait Retry-After seconds.' },
  InternalError: { status: 500, description: 'INTERNAL_ERROR. Nothing is known to have changed: read the resource back, or retry (cash-ins and cash-outs are idempotent on merchant_order_id).' },
  NotImplemented: { status: 501, description: 'DISBURSEMENT_NOT_CONFIGURED: cash-out is off; nothing was written or debited.' },
};

function errorSchema(codes: readonly string[]): SchemaObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'message', 'request_id'],
        properties: {
          code: { type: 'string', enum: [...codes] },
          message: { type: 'string', minLength: 1, description: 'For people; may change. Program against `code`.' },
          details: {
            type: 'array', description: 'With VALIDATION_ERROR: one entry per problem.',
            items: { $ref: '#/components/schemas/FieldIssue' },
          },
          request_id: { type: 'string', description: 'The X-Request-Id of the response; quote it to support.' },
        },
      },
    },
  };
}

export const errorSchemas: Record<string, SchemaObject> = {
  Error: { ...errorSchema(ERROR_CODES), description: 'Every error body (decisions 3).' },
  ErrorCode: { type: 'string', enum: [...ERROR_CODES] },
  FieldIssue: {
    type: 'object', additionalProperties: false, required: ['field', 'issue'],
    properties: { field: { type: 'string', examples: ['amount'] }, issue: { type: 'string', examples: ['must be an integer'] } },
  },
};

export const errorResponses: Record<string, ResponseObject> = Object.fromEntries(
  Object.entries(ERROR_RESPONSES).map(([name, { status, description }]) => [name, {
    description,
    headers: {
      ...requestIdHeader,
      ...(status === 429 ? { ...rateLimitHeaders, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
    },
    content: { 'application/json': { schema: errorSchema(codesWith(status)) } },
  } satisfies ResponseObject]),
);

/** The component response name of an error status. */
export function errorResponse(status: number): { $ref: string } {
  const name = Object.entries(ERROR_RESPONSES).find(([, r]) => r.status === status)?.[0];
  if (!name) throw new Error(`no error response for status ${status}`);
  return { $ref: `#/components/responses/${name}` };
}
