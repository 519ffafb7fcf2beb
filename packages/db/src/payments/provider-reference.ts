import { randomBytes } from 'node:crypto';

/** Crockford's base32: no I, L, O, U, so a reference read out over the phone is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The reference the operator knows a payment by, and the only one its callbacks name. It is random
 * (100 bits), never derived from the transaction id: the id is public (it is in the payment page's
 * URL), so a reference computable from it would leave the secret as the only guard on a forged
 * callback. Prefix (MM cash-in, CO cash-out, RF refund) + 20 characters, within every operator's limit.
 */
export function newProviderReference(prefix: 'MM' | 'CO' | 'RF'): string {
  const bytes = randomBytes(20);
  let out = prefix;
  // 32 symbols: the low five bits of each byte are uniform.
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}
