/**
 * What a merchant is told about a failed attempt (GET /api/v1/webhook-events, attempts[].error): a
 * fixed vocabulary. Never an address, a resolver's answer or a library's message: a merchant chooses
 * the URL, and those would let a webhook URL probe our network (which internal names resolve, which
 * addresses answer). Staff see the detail in the back-office (webhook_attempts.error_detail).
 */

/** Any refusal of the target guard, a name that does not resolve included: one reason, so none is an oracle. */
export const TARGET_REFUSED =
  'target refused: the URL must be http(s) and its host must resolve to public addresses only';

export const NO_ACTIVE_KEY = 'merchant has no active key';

export const timedOut = (timeoutMs: number) => `timeout after ${timeoutMs} ms`;

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|EPROTO)/;

/** A connection that failed without an answer, by its error code. */
export function connectionFailure(code: string | undefined): string {
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (code && TLS_CODE.test(code)) return 'TLS handshake failed';
  return 'connection failed';
}
