import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a presented secret equals the expected one, in constant time whatever their lengths:
 * digests of both are compared, so neither the length nor a common prefix leaks through timing.
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
