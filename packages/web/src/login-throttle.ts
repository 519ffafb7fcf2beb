import { createHash } from 'node:crypto';
import type { RedisClient } from '@mm/queues';
import { clientAddressBucket } from '@mm/observability';

export interface LoginLimits {
  /** Attempts counted against one email before it is locked (LOGIN_MAX_FAILURES). */
  maxFailures: number;
  /** How long the lock lasts, from the attempt that reached maxFailures (LOGIN_LOCKOUT_S). */
  lockoutS: number;
  /** Attempts one client address may have counted in a window, successes given back (LOGIN_MAX_ATTEMPTS_PER_IP). */
  maxPerAddress: number;
  /** The address window, from its first counted attempt (LOGIN_IP_WINDOW_S). */
  addressWindowS: number;
}

/**
 * What to do with one login attempt, decided before any password is looked at:
 * - `admitted`: check the password; `attempt` is this email's count, this attempt included;
 * - `locked`: the email has had maxFailures attempts without a success; refused unverified;
 * - `throttled`: the client address is over its limit; refused unverified.
 * `refused` counts the refusals of the current lock or window, this one included.
 */
export type Admission =
  | { kind: 'admitted'; attempt: number }
  | { kind: 'locked'; refused: number }
  | { kind: 'throttled'; refused: number; retryAfterS: number };

/*
 * One script, so that counting and deciding are one atomic step in Redis: of any number of concurrent
 * attempts, exactly the first maxFailures (per email) and maxPerAddress (per address) are admitted,
 * whichever instance receives them. KEYS[1] the email's hash, KEYS[2] the address's; each has `n`
 * (attempts counted) and `refused`.
 * - The address is checked first: an address over its limit neither counts against nor reveals anything
 *   about the email it tries. Every attempt from the address counts, until a success gives its one back.
 *   Its window is fixed from its first counted attempt (EXPIRE only when the key has no TTL yet).
 * - The email's count expires lockoutS after its last admitted attempt. Refused attempts neither count
 *   nor touch that TTL: the lock ends lockoutS after the attempt that set it, however many come meanwhile.
 */
const ADMIT = `
local address = tonumber(redis.call('HGET', KEYS[2], 'n') or '0')
if address >= tonumber(ARGV[3]) then
  return {'throttled', redis.call('HINCRBY', KEYS[2], 'refused', 1), redis.call('TTL', KEYS[2])}
end
redis.call('HINCRBY', KEYS[2], 'n', 1)
if redis.call('TTL', KEYS[2]) < 0 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
local account = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
if account >= tonumber(ARGV[1]) then
  return {'locked', redis.call('HINCRBY', KEYS[1], 'refused', 1), redis.call('TTL', KEYS[1])}
end
account = redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {'admitted', account, tonumber(ARGV[2])}
`;

// A success clears the email's count and gives its attempt back to the address (never below zero, and
// never re-creating an expired key, which would then live without a TTL).
const SUCCEEDED = `
redis.call('DEL', KEYS[1])
if tonumber(redis.call('HGET', KEYS[2], 'n') or '0') > 0 then redis.call('HINCRBY', KEYS[2], 'n', -1) end
return 1
`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Login attempts counted per email and per client address in Redis, shared by every instance, and
 * counted *before* the password is verified: a burst of concurrent guesses cannot get more password
 * checks than the limits, since each one takes its place in the count first. Unknown emails are counted
 * like real ones (the lockout must not reveal which accounts exist). A success resets the email's count.
 * Redis must be one server (not a cluster): the script touches both keys.
 */
export class LoginThrottle {
  readonly maxFailures: number;
  readonly lockoutS: number;

  /**
   * `app` names the keys (`bo`, `mp`): each app counts its own logins. `normalizeEmail` is the app's
   * own spelling of an account's email, so `A@x` and `a@x ` count as one account.
   */
  constructor(
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
    private readonly limits: LoginLimits,
    private readonly app: string,
    private readonly normalizeEmail: (email: string) => string,
  ) {
    this.maxFailures = limits.maxFailures;
    this.lockoutS = limits.lockoutS;
  }

  /** `<prefix>:<app>:login-account:<sha256 of the email>`: no addresses in Redis key names. */
  accountKey(email: string): string {
    return `${this.redisPrefix}:${this.app}:login-account:${sha256(this.normalizeEmail(email))}`;
  }

  /** `<prefix>:<app>:login-address:<sha256 of the address bucket>` (see clientAddressBucket). */
  addressKey(ip: string | undefined): string {
    return `${this.redisPrefix}:${this.app}:login-address:${sha256(clientAddressBucket(ip))}`;
  }

  /** Counts the attempt and decides, in one step; see Admission. */
  async admit(email: string, ip: string | undefined): Promise<Admission> {
    const { maxFailures, lockoutS, maxPerAddress, addressWindowS } = this.limits;
    const reply = (await this.redis.eval(
      ADMIT,
      2,
      this.accountKey(email),
      this.addressKey(ip),
      maxFailures,
      lockoutS,
      maxPerAddress,
      addressWindowS,
    )) as [string, number, number];
    const [kind, count, ttl] = reply;
    if (kind === 'admitted') return { kind, attempt: count };
    if (kind === 'locked') return { kind, refused: count };
    if (kind === 'throttled') return { kind, refused: count, retryAfterS: Math.max(1, ttl) };
    throw new Error(`login throttle: unexpected reply ${JSON.stringify(reply)}`);
  }

  async succeeded(email: string, ip: string | undefined): Promise<void> {
    await this.redis.eval(SUCCEEDED, 2, this.accountKey(email), this.addressKey(ip));
  }
}

/**
 * Refusals without a password check (locked email, throttled address) are audited at the 1st, 10th,
 * 100th... of a lock or window, each row with the count so far: a flood of them, which anyone can send
 * without an account, must not grow an append-only table nobody may clean (nor queue up behind its
 * hash chain's lock) one row per request. The metric counts every one.
 */
export function auditsRefusal(refused: number): boolean {
  return /^10*$/.test(String(refused));
}
