import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { normalizeStaffEmail } from '@mm/db';

/**
 * Consecutive failed logins per email, in Redis so every instance shares them. At `maxFailures` the
 * email is locked for `lockoutS` after the last counted failure; attempts while locked are not counted,
 * so an attacker hammering an account cannot keep its owner locked out for ever. A success resets it.
 * Unknown emails are counted like real ones: the lockout must not reveal which accounts exist.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly redisPrefix: string,
    readonly maxFailures: number,
    readonly lockoutS: number,
  ) {}

  /** `<prefix>:bo:login-failures:<sha256 of the email>`: no addresses in Redis key names. */
  key(email: string): string {
    const digest = createHash('sha256').update(normalizeStaffEmail(email)).digest('hex');
    return `${this.redisPrefix}:bo:login-failures:${digest}`;
  }

  async isLocked(email: string): Promise<boolean> {
    return Number((await this.redis.get(this.key(email))) ?? 0) >= this.maxFailures;
  }

  /** Counts one failure; returns the count of consecutive failures so far. */
  async recordFailure(email: string): Promise<number> {
    const key = this.key(email);
    const replies = await this.redis.multi().incr(key).expire(key, this.lockoutS).exec();
    const [err, count] = replies?.[0] ?? [new Error('login throttle: transaction aborted'), 0];
    if (err) throw err;
    return Number(count);
  }

  async reset(email: string): Promise<void> {
    await this.redis.del(this.key(email));
  }
}
