import { WebhookVerificationError } from './errors.js';
import { signatureMatches, timestampWithinTolerance } from './signature.js';
import type { WebhookEvent } from './types.js';

/** Headers as fetch gives them, or as node:http / Express give them (lower-case keys). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Refuse a timestamp further than this from your clock, in seconds. Default 300, as the interface says. */
  toleranceS?: number;
  /** Your clock, in milliseconds. */
  now?: () => number;
}

const EVENTS = new Set(['transaction.status_changed', 'refund.status_changed']);

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value =
    headers[name.toLowerCase()] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a webhook exactly as the interface says (HMAC-SHA256 of X-Service-Timestamp followed by the raw
 * body, keyed with your API secret, compared in constant time; timestamp within the tolerance) and returns
 * the event. `rawBody` must be the bytes received, before any JSON parsing. `secret` may list several
 * secrets while you rotate keys: webhooks are signed with your newest active key's. Throws
 * WebhookVerificationError: answer 401 and do not process, except for reason UNKNOWN_EVENT (a genuine
 * event of a newer API version): answer 2xx so that it is not retried.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent {
  const timestamp = header(headers, 'X-Service-Timestamp');
  const signature = header(headers, 'X-Service-Signature');
  if (!timestamp || !signature)
    throw new WebhookVerificationError('MISSING_HEADER', 'X-Service-Timestamp and X-Service-Signature are required');
  const toleranceS = options.toleranceS ?? 300;
  if (!timestampWithinTolerance(timestamp, (options.now ?? Date.now)(), toleranceS)) {
    throw new WebhookVerificationError(
      'TIMESTAMP_OUT_OF_TOLERANCE',
      `timestamp ${timestamp} is more than ${toleranceS} s from now`,
    );
  }
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError('at least one secret is required');
  if (!secrets.some((s) => signatureMatches(s, timestamp, rawBody, signature))) {
    throw new WebhookVerificationError('INVALID_SIGNATURE', 'the signature does not match the body');
  }
  let event: WebhookEvent;
  try {
    event = JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'the body is not JSON');
  }
  if (!event || typeof event !== 'object' || typeof event.event !== 'string' || typeof event.event_id !== 'string') {
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'the body is not an event');
  }
  if (!EVENTS.has(event.event))
    throw new WebhookVerificationError('UNKNOWN_EVENT', `event ${event.event} is not known to this SDK version`);
  const eventId = header(headers, 'X-Service-Event-Id');
  if (eventId !== undefined && eventId !== event.event_id)
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'X-Service-Event-Id differs from the body');
  return event;
}
