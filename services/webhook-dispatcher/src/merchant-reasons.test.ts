import { connectionFailure } from './merchant-reasons.js';

describe("a failed connection, in the merchant's words", () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ECONNRESET', 'connection reset'],
    ['EPIPE', 'connection reset'],
    ['EHOSTUNREACH', 'host unreachable'],
    ['ENETUNREACH', 'host unreachable'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS handshake failed'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS handshake failed'],
    ['CERT_HAS_EXPIRED', 'TLS handshake failed'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'TLS handshake failed'],
    ['EPROTO', 'TLS handshake failed'],
    ['EAI_AGAIN', 'connection failed'],
    [undefined, 'connection failed'],
  ])('%s: %s', (code, reason) => {
    expect(connectionFailure(code)).toBe(reason);
  });
});
