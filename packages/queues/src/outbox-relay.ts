import type { FailedJob, InvalidRow, OutboxPublisher } from './outbox-publisher.js';
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
  /**
   * A due row whose job failed for good: count the run. True when the row is now parked, and the relay
   * leaves it (and its failed job, for the Bull dashboard) alone; false to run it again. Called for the
   * same failed job by every replica's relay: it must count each failed job once.
   */
  onFailedRun?(row: PublishableOutboxRow, failed: FailedJob): Promise<boolean>;
  /** A due row whose payload breaks its queue's schema: it can never run as it is (parked by the worker runtime). */
  onInvalidPayload?(invalid: InvalidRow): Promise<void>;
}

export interface OutboxRelay {
  /** One pass, for tests and for the loop. Returns how many rows were re-published. */
  runOnce(now?: number): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Re-publishes outbox rows that are due and not done: the process died between commit and publish,
 * or Redis lost its data, or the job used up its attempts (then counted, and parked past a limit).
 * Job ids are per row and run, so re-adding a job still in Redis is a no-op.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  let stopped = false;
  let running: Promise<number> | null = null;
  // A failed job is removed only once counted (and not parked): a job failing between this check and
  // the add is left for the next pass, where it is counted, rather than run again uncounted.
  const runAgain = async (row: PublishableOutboxRow): Promise<boolean> => {
    const failed = await options.publisher.failedJob(row);
    if (!failed) return true;
    if (options.onFailedRun && (await options.onFailedRun(row, failed))) return false;
    // Another replica may have removed it first: either way it is gone.
    await failed.remove().catch(() => undefined);
    return true;
  };
  const runOnce = async (now = Date.now()) => {
    const due = await options.findOverdue(options.topics, new Date(now - options.graceMs));
    const rows = (await Promise.all(due.map(async (row) => ((await runAgain(row)) ? [row] : [])))).flat();
    const invalid = await options.publisher.publish(rows, now);
    // Without this a broken row would stay at the head of every pass's page of overdue rows.
    if (options.onInvalidPayload) for (const i of invalid) await options.onInvalidPayload(i);
    return rows.length;
  };
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = runOnce()
      .catch((err) => {
        options.onError?.(err);
        return 0;
      })
      .finally(() => {
        running = null;
      });
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
