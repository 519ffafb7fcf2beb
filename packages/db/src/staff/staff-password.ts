/**
 * Staff password hashing with Node's scrypt (no native dependency). The stored form describes itself,
 * `scrypt$N$r$p$salt$hash` (salt and hash base64url), so the cost can be raised later: old hashes keep
 * verifying with the parameters they were made with.
 *
 * It lives here, beside staff_users, because it is the format of `password_hash`: the back-office
 * (login) and the admin CLI (staff:create, seed) both need it and must not depend on each other.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt minimum (2^15, 8, 1): about 32 MiB and some tens of milliseconds per hash. */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
// Bounds on parameters read back from a stored string: a corrupted or hostile row must not make one
// login attempt allocate gigabytes or spin for minutes.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function derive(password: string, salt: Buffer, keyBytes: number, { N, r, p }: ScryptParams): Promise<Buffer> {
  // Node refuses by default when scrypt needs more than 32 MiB; N=2^15, r=8 needs exactly
  // 128*r*(N+p+2) bytes, a little above. Allow what these parameters need plus a margin.
  const maxmem = 128 * r * (N + p + 2) + 1024 * 1024;
  return new Promise((resolve, reject) => {
    // NFC: the same password typed on two keyboards (composed or decomposed accents) is the same.
    scrypt(password.normalize('NFC'), salt, keyBytes, { N, r, p, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash extends ScryptParams {
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((s) => (/^\d{1,8}$/.test(s) ? Number(s) : NaN)) as [number, number, number];
  const powerOfTwo = N >= 2 && N <= MAX_N && (N & (N - 1)) === 0;
  if (!powerOfTwo || !(r >= 1 && r <= MAX_R) || !(p >= 1 && p <= MAX_P)) return null;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const key = Buffer.from(parts[5]!, 'base64url');
  if (salt.length < 8 || key.length < 16 || key.length > 128) return null;
  return { N, r, p, salt, key };
}

/**
 * True when `password` matches `stored`. A stored value that is not a valid scrypt string verifies
 * nothing (fails closed) rather than throwing in the middle of a login.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.key.length, parsed);
  return timingSafeEqual(key, parsed.key);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one verification and returns false: used when the email is unknown (or the account
 * unusable), so the response time does not tell whether an account exists.
 */
export async function dummyVerifyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
  return false;
}

/** A strong random password for a new account (shown once): 144 bits, URL-safe characters. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
