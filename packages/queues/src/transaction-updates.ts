import type { RedisClient } from './redis-connection.js';

/**
 * Redis pub/sub channel on which every committed transaction state change is announced, so the
 * gateway can wait for the operator's acknowledgement without polling PostgreSQL.
 */
export function transactionUpdatesChannel(redisPrefix: string): string {
  return `${redisPrefix}:transaction-updates`;
}

export interface TransactionUpdate {
  transaction_id: string;
  status: string;
}

export async function announceTransactionUpdate(redis: RedisClient, redisPrefix: string, update: TransactionUpdate): Promise<void> {
  await redis.publish(transactionUpdatesChannel(redisPrefix), JSON.stringify(update));
}

/** One subscriber connection per process; callers wait on a transaction id with a deadline. */
export class TransactionUpdateWaiter {
  private readonly waiters = new Map<string, Set<(status: string) => void>>();

  private constructor(private readonly subscriber: RedisClient) {}

  static async start(subscriber: RedisClient, redisPrefix: string): Promise<TransactionUpdateWaiter> {
    const waiter = new TransactionUpdateWaiter(subscriber);
    // SUBSCRIBE may be written before ioredis's ready check (INFO), which then fails in subscriber
    // mode and drops the connection with its subscription: every gateway waited out its ack budget.
    if (subscriber.status !== 'ready') await new Promise((ready) => subscriber.once('ready', ready));
    await subscriber.subscribe(transactionUpdatesChannel(redisPrefix));
    subscriber.on('message', (_channel: string, message: string) => waiter.dispatch(message));
    return waiter;
  }

  /** Resolves with the first announced status accepted by `until`, or null after `timeoutMs`. */
  wait(transactionId: string, until: (status: string) => boolean, timeoutMs: number): { promise: Promise<string | null>; cancel(): void } {
    let done: (s: string | null) => void = () => undefined;
    const promise = new Promise<string | null>((resolve) => { done = resolve; });
    const listener = (status: string) => { if (until(status)) finish(status); };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const set = this.waiters.get(transactionId) ?? new Set();
    set.add(listener);
    this.waiters.set(transactionId, set);
    const finish = (s: string | null) => {
      clearTimeout(timer);
      set.delete(listener);
      if (set.size === 0) this.waiters.delete(transactionId);
      done(s);
    };
    return { promise, cancel: () => finish(null) };
  }

  private dispatch(message: string): void {
    let update: TransactionUpdate;
    try {
      update = JSON.parse(message) as TransactionUpdate;
    } catch {
      return;
    }
    for (const listener of this.waiters.get(update.transaction_id) ?? []) listener(update.status);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }
}
