import { createHash } from 'node:crypto';
import type { SignedRequest } from './request-context.js';

/**
 * What a refund or a cash-out keeps of the signed request that created it (request_signature_hash,
 * unique): the pair the Redis replay guard remembers, key and signature, so that the database still
 * refuses the same request once Redis has lost it. Hashed: the value only has to be unique, and a
 * digest of fixed length keeps the index small. The key (`pk_` and hex) holds no newline, so the
 * pair is read back unambiguously.
 */
export function signedRequestHash({ apiKey, signature }: SignedRequest): string {
  return createHash('sha256').update(`${apiKey}\n${signature}`).digest('hex');
}
