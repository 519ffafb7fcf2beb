import type { RedisClient } from './redis-connection.js';
import { Counter, singleMetric, type Registry } from '@mm/observability';
import type { OutboxPublisher } from './outbox-publisher.js';
import type { PublishableOutboxRow } from './outbox-row.js';
import { announceTransactionUpdate, transactionUpdateOf, type AcknowledgedFields } from './transaction-updates.js';

export interface CommittedChange {
  /**
   * The transaction whose status changed, announced to waiting gateways; absent when none did (a refund
   * decided). The moved row, when given whole, lets the announcement carry the acknowledged fields.
   */
  transaction?: { id: string; status: string; type?: string } & Partial<Omit<AcknowledgedFields, 'status'>>;
  /**
   * The status the transaction moved from, null for one just created: counted in
   * mm_transaction_transitions_total. Absent when its status did not change (a refund's own jobs).
   */
  from?: string | null;
  outbox: PublishableOutboxRow[];
}

/**
 * The statuses of a cash-in waiting for the operator's acknowledgement. The gateway waits for the first
 * status past them (PENDING, or a decision), so only a move out of them is announced: announcing one
 * into them, or any later move (PENDING to SUCCESS, a refund's effect on its cash-in), would be a Redis
 * call per cash-in heard by every gateway and waited for by none.
 */
const AWAITING_ACK = new Set(['CREATED', 'INITIATED']);

/** Still waiting for the operator's acknowledgement: the gateway waits for the first status that is not. */
export function isAwaitingAck(status: string): boolean {
  return AWAITING_ACK.has(status);
}

function awaited(c: CommittedChange & { transaction: NonNullable<CommittedChange['transaction']> }): boolean {
  return typeof c.from === 'string' && AWAITING_ACK.has(c.from) && !AWAITING_ACK.has(c.transaction.status);
}

/**
 * What follows a committed state change: its jobs go to their queues and the change is announced.
 * Both are best effort; the outbox relay covers a failed publish, and a missed announcement only
 * makes a waiting gateway answer with the state it reads itself once its wait is over. An announcement
 * carries the moved row's acknowledged fields, so the gateway that hears it answers without a read.
 */
export class AfterCommit {
  private readonly transitions: Counter<'type' | 'from' | 'to'> | null;

  constructor(
    private readonly publisher: OutboxPublisher,
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
    metrics?: Registry,
  ) {
    this.transitions = metrics
      ? singleMetric(
          metrics,
          'mm_transaction_transitions_total',
          () =>
            new Counter({
              name: 'mm_transaction_transitions_total',
              help: 'Committed transaction status changes by type and from/to status (from NONE: created).',
              labelNames: ['type', 'from', 'to'],
              registers: [metrics],
            }),
        )
      : null;
  }

  async run(changes: (CommittedChange | null)[]): Promise<void> {
    const real = changes.filter((c): c is CommittedChange => c !== null);
    const moved = real.flatMap((c) => (c.transaction ? [{ ...c, transaction: c.transaction }] : []));
    for (const c of moved) {
      if (c.from !== undefined)
        this.transitions?.inc({
          type: c.transaction.type ?? 'UNKNOWN',
          from: c.from ?? 'NONE',
          to: c.transaction.status,
        });
    }
    await this.publisher.publish(real.flatMap((c) => c.outbox));
    await Promise.all(
      moved
        .filter(awaited)
        .map((c) =>
          announceTransactionUpdate(this.redis, this.redisPrefix, transactionUpdateOf(c.transaction)).catch(
            () => undefined,
          ),
        ),
    );
  }
}
