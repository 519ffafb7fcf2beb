import { createHash } from 'node:crypto';

/**
 * MTN's X-Reference-Id for one of our references. MTN wants a UUID v4 (its 400 otherwise) and dedupes on it
 * (409 RESOURCE_ALREADY_EXIST), while our references are not UUIDs: the id is derived from the reference
 * (sha256, version and variant bits set), so a retried push, refund or payout reuses the same id instead
 * of a random one that would pay twice. Our reference itself travels as `externalId`.
 */
export function mtnReferenceId(partnerReference: string): string {
  const bytes = createHash('sha256').update(`mtn-momo:${partnerReference}`, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
