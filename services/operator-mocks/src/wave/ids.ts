import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Ids shaped like Wave's: `cos-18qq25rgr100a` (sessions), `pt-...` (payouts), `AE_...` (events), `T_...` (transactions). */
export function waveId(prefix: string, length = 13): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}
