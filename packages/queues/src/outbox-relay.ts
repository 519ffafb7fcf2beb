import type { OutboxPublisher } from './outbox-publisher.js';
import type { OutboxTopic, PublishableOutboxRow } from './outbox-row.js';

export interface OutboxRelayOptions {
  publisher: OutboxPublisher;
  /** The topics this service consumes: each consumer re-publishes its own work. */
  topics: OutboxTopic[];
  /**
   * Rows read back from the database: their payload's type is asserted there, not checked; the
   * producer's schema check is what catches a row that breaks it (logged at error level each pass).
   */
  findOverdue(topics: OutboxTopic[], before: Date): Promise<PublishableOutboxRow[]>;
  /** How long a row may be due before the relay assumes its job was lost. */
  graceMs: number;
  intervalMs: number;
  onError?(err: unknown): void;
}

export interface OutboxRelay {
  /** One pass, for tests and for the loop. Returns how many rows were re-published. */
  runOnce(now?: number): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Re-publishes outbox rows that are due and not done: the process died between commit and publish,
 * or Redis lost its data. Job ids are per row and run, so re-adding a job still in Redis is a no-op.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  let stopped = false;
  let running: Promise<number> | null = null;
  const runOnce = async (now = Date.now()) => {
    const rows = await options.findOverdue(options.topics, new Date(now - options.graceMs));
    await options.publisher.republish(rows, now);
    return rows.length;
  };
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = runOnce().catch((err) => {
      options.onError?.(err);
      return 0;
    }).finally(() => { running = null; });
  }, options.intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
