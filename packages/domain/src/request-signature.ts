/**
 * The interface's signing rule (HMAC-SHA256 of the timestamp followed by the exact body bytes, compared in
 * constant time; timestamp tolerance) for merchant requests, webhooks and operator callbacks. It is the
 * merchant SDK's own code: the service and every merchant using the SDK sign and verify with one implementation.
 */
export { sign as signPayload, signatureMatches, timestampWithinTolerance } from '@mm/sdk/signature';
