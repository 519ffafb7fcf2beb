import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@mm/domain';
import type { ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { rateLimitHeaders, requestIdHeader } from './headers.js';
import { ref } from './schemas/primitives.js';

const codesWith = (status: number) => ERROR_CODES.filter((c) => ERROR_STATUS[c] === status);

/** What each code means to the merchant; a response's description lists those it can carry. */
const MEANING: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'a field is missing, of the wrong type or out of range, or unknown (`details` names each)',
  INVALID_JSON: 'the body is not UTF-8 JSON',
  AUTHENTICATION_REQUIRED: 'an authentication header is missing',
  INVALID_API_KEY: 'the key is unknown or revoked',
  INVALID_SIGNATURE: 'the signature does not match the timestamp and body',
  TIMESTAMP_OUT_OF_TOLERANCE: 'the timestamp is more than 300 s from our clock',
  REQUEST_REPLAYED: 'the same signed request was already received: sign every request anew, a retry in a later second',
  MERCHANT_DISABLED: 'the merchant account is disabled',
  NOT_FOUND: "no such id (unknown, another merchant's, or malformed alike)",
  DUPLICATE_ORDER_ID: 'the merchant_order_id was used with other parameters',
  INVALID_STATE: 'only a SUCCESS cash-in can be refunded',
  INSUFFICIENT_BALANCE: 'the available balance cannot cover it',
  IDEMPOTENCY_KEY_REUSED: 'the Idempotency-Key was used with another body',
  PAYLOAD_TOO_LARGE: 'the body exceeds 64 KiB',
  UNSUPPORTED_MEDIA_TYPE: 'a body that is not application/json',
  COUNTRY_NOT_SUPPORTED: 'the country is not an active subsidiary, or cannot be told from the number',
  OPERATOR_NOT_SUPPORTED:
    'no enabled operator of the subsidiary serves the number (or the operator named has no account there)',
  CURRENCY_MISMATCH: "the currency is not the country's",
  AMOUNT_OUT_OF_RANGE: 'the amount is outside AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default)',
  REFUND_EXCEEDS_AMOUNT: 'refunds not FAILED would exceed the amount',
  RATE_LIMITED:
    'the per-merchant limit (50 requests/s, bursts of 100), or, before authentication, too many failed authentications (401) from your address (100 a minute by default): wait Retry-After seconds',
  DISBURSEMENT_NOT_CONFIGURED: 'cash-out is off; nothing was written or debited',
  OPERATOR_UNAVAILABLE:
    "the operator's account is disabled or marked down and nothing was written: retry after Retry-After seconds",
  SERVICE_UNAVAILABLE:
    'the database or Redis could not answer in time (down, restarting, overloaded): retry after Retry-After seconds, signed anew; a write is idempotent, so a retry never does it twice',
  INTERNAL_ERROR:
    'nothing is known to have changed: read the resource back, or retry (cash-ins and cash-outs are idempotent on merchant_order_id)',
};

/** The component responses, one per error status. */
const COMPONENT: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Unprocessable',
  429: 'RateLimited',
  500: 'InternalError',
  501: 'NotImplemented',
  503: 'ServiceUnavailable',
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
            type: 'array',
            description: 'With VALIDATION_ERROR: one entry per problem.',
            items: ref('FieldIssue'),
          },
          request_id: { type: 'string', description: 'The X-Request-Id of the response; quote it to support.' },
        },
      },
    },
  };
}

function response(status: number, codes: readonly ErrorCode[]): ResponseObject {
  return {
    description: codes.map((c) => `${c}: ${MEANING[c]}.`).join(' ') + (status < 500 ? ' Nothing was changed.' : ''),
    headers: {
      ...requestIdHeader,
      ...(status === 429 ? { ...rateLimitHeaders, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
      ...(status === 503 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
    },
    content: { 'application/json': { schema: errorSchema(codes) } },
  };
}

export const errorSchemas: Record<string, SchemaObject> = {
  Error: {
    ...errorSchema(ERROR_CODES),
    description: 'Every error body: a stable code, a message for people, optional details and the request id.',
  },
  ErrorCode: { type: 'string', enum: [...ERROR_CODES] },
  FieldIssue: {
    type: 'object',
    additionalProperties: false,
    required: ['field', 'issue'],
    properties: {
      field: { type: 'string', examples: ['amount'] },
      issue: { type: 'string', examples: ['must be an integer'] },
    },
  },
};

export const errorResponses: Record<string, ResponseObject> = Object.fromEntries(
  Object.entries(COMPONENT).map(([status, name]) => [name, response(Number(status), codesWith(Number(status)))]),
);

/**
 * The error answer of `status` for one operation: the shared component, or, given `codes`, one whose
 * `code` is limited to those the operation can give (a GET is never a replay, a cash-in never a refund
 * conflict), so a wrong code under the right status is caught too.
 */
export function errorResponse(status: number, codes?: readonly ErrorCode[]): ResponseObject | { $ref: string } {
  const name = COMPONENT[status];
  if (!name) throw new Error(`no error response for status ${status}`);
  if (!codes) return { $ref: `#/components/responses/${name}` };
  const stray = codes.filter((c) => ERROR_STATUS[c] !== status);
  if (stray.length > 0) throw new Error(`${stray.join(', ')} are not answered with ${status}`);
  return response(status, codes);
}
