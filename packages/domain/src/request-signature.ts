/**
 * The interface's signing rule (HMAC-SHA256 of the timestamp followed by the exact body bytes, compared in
 * constant time; timestamp tolerance) for merchant requests, webhooks and operator callbacks, and the
 * optional X-Service-Request-Signature that also covers a request's method and target. It is the
 * merchant SDK's own code: the service and every merchant using the SDK sign and verify with one implementation.
 */
export {
  sign as signPayload,
  signatureMatches,
  timestampWithinTolerance,
  REQUEST_SIGNATURE_HEADER,
  requestSigningText,
  signRequest,
  requestSignatureMatches,
} from '@mm/sdk/signature';
