import type { Redis } from 'ioredis';
import type { OutboxPublisher } from './outbox-publisher.js';
import type { PublishableOutboxRow } from './outbox-row.js';
import { announceTransactionUpdate } from './transaction-updates.js';

export interface CommittedChange {
  transaction: { id: string; status: string };
  outbox: PublishableOutboxRow[];
}

/**
 * What follows a committed state change: its jobs go to their queues and the change is announced.
 * Both are best effort; the outbox relay covers a failed publish, and a missed announcement only
 * makes a waiting gateway answer with the state it reads itself.
 */
export class AfterCommit {
  constructor(
    private readonly publisher: OutboxPublisher,
    private readonly redis: Redis,
    private readonly redisPrefix: string,
  ) {}

  async run(changes: (CommittedChange | null)[]): Promise<void> {
    const real = changes.filter((c): c is CommittedChange => c !== null);
    await this.publisher.publish(real.flatMap((c) => c.outbox));
    await Promise.all(
      real.map((c) =>
        announceTransactionUpdate(this.redis, this.redisPrefix, { transaction_id: c.transaction.id, status: c.transaction.status }).catch(() => undefined),
      ),
    );
  }
}
