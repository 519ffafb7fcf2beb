import type { MediaTypeObject, ParameterObject, RequestBodyObject } from 'openapi3-ts/oas31';
import { errorResponse } from '../errors.js';
import { ref } from '../schemas/primitives.js';

/** `{"data": <schema>}`, the envelope of every successful answer. */
export function dataOf(schema: string, array = false): Record<string, MediaTypeObject> {
  return {
    'application/json': {
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['data'],
        properties: { data: array ? { type: 'array', items: ref(schema) } : ref(schema) },
      },
    },
  };
}

/** The optional Idempotency-Key of a creation that has no idempotency key of its own in the body. */
export function idempotencyKeyHeader(what: string): ParameterObject {
  return {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: `Makes a retry safe: the same key with the same body answers 200 with the same ${what}; with another body 409 IDEMPOTENCY_KEY_REUSED.`,
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  };
}

export function jsonBody(schema: string): RequestBodyObject {
  return { required: true, content: { 'application/json': { schema: ref(schema) } } };
}

/** Errors every POST can answer: its body, its signature, its merchant, the limiter, the server. */
export const writeErrors = {
  400: errorResponse(400, ['VALIDATION_ERROR', 'INVALID_JSON']),
  401: errorResponse(401),
  403: errorResponse(403),
  413: errorResponse(413),
  415: errorResponse(415),
  429: errorResponse(429),
  500: errorResponse(500),
  503: errorResponse(503, ['SERVICE_UNAVAILABLE']),
};

/**
 * Errors every GET can answer. A GET is never refused as a replay. Its body (it should have none) is read
 * and signed like any other, so one over 64 KiB is a 413 and a compressed one a 400, as for a POST.
 */
export const readErrors = {
  400: errorResponse(400, ['VALIDATION_ERROR']),
  401: errorResponse(401, [
    'AUTHENTICATION_REQUIRED',
    'INVALID_API_KEY',
    'INVALID_SIGNATURE',
    'TIMESTAMP_OUT_OF_TOLERANCE',
  ]),
  403: errorResponse(403),
  413: errorResponse(413),
  429: errorResponse(429),
  500: errorResponse(500),
  503: errorResponse(503, ['SERVICE_UNAVAILABLE']),
};
