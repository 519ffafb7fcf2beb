import type { HeaderObject, ReferenceObject } from 'openapi3-ts/oas31';

type Headers = Record<string, HeaderObject | ReferenceObject>;

export const headerComponents: Record<string, HeaderObject> = {
  RequestId: {
    description:
      'Identifies the request in our logs. Yours is kept when you send a sane one (1-100 characters of [A-Za-z0-9._-]).',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 100 },
  },
  // Sent on every authenticated answer, unless the limiter could not reach Redis (the request is then let through).
  RateLimitLimit: {
    description: 'Requests per second allowed to the merchant, sustained.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  RateLimitRemaining: {
    description: 'Requests left in the current second.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  RateLimitReset: { description: 'Seconds until the window resets.', schema: { type: 'string', pattern: '^\\d+$' } },
  RetryAfter: {
    description: 'Seconds to wait before the next request.',
    required: true,
    schema: { type: 'string', pattern: '^[1-9]\\d*$' },
  },
  IdempotentReplayed: {
    description:
      'true: this answer is the record an earlier request created (same merchant_order_id or Idempotency-Key, same parameters); nothing new was done.',
    required: true,
    schema: { type: 'string', const: 'true' },
  },
};

export const requestIdHeader: Headers = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

export const rateLimitHeaders: Headers = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

/** Headers of a successful answer to an authenticated request. */
export const okHeaders: Headers = { ...requestIdHeader, ...rateLimitHeaders };

export const replayedHeaders: Headers = {
  ...okHeaders,
  'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' },
};
