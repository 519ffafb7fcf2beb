import type { OutboxQueueDefinition, OutboxTopic, QueueCatalog } from './catalog.js';
import { outboxJobId } from './queue-definition.js';
import { InvalidPayloadError, QueueProducer, type ProducerOptions } from './producer.js';
import { isHeld, type PublishableOutboxRow } from './outbox-row.js';

/** A job of an outbox row that used up all its attempts: what the relay counts against the row. */
export interface FailedJob {
  /** The same for the same failure whoever reads it: `<job id>@<finishedOn>`. */
  key: string;
  reason: string;
  /** Removes it from Redis, so that re-adding its id runs the work again. */
  remove(): Promise<void>;
}

/** An outbox row whose payload does not satisfy its queue's schema, with the schema's complaint. */
export interface InvalidRow {
  row: PublishableOutboxRow;
  reason: string;
}

export interface PublishLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * A producer of one of the queues fed by the outbox: `new QueueProducer(webhookDeliveries, ...)` is
 * one, a producer of operator-results is not (like OutboxQueueDefinition).
 */
export type OutboxQueueProducer = QueueProducer<QueueCatalog[OutboxTopic], OutboxTopic>;

/**
 * Publishes committed outbox rows to their queues. A failure here loses nothing: the row is still in
 * PostgreSQL and the relay re-publishes it, so errors are logged, not thrown.
 */
export class OutboxPublisher {
  /** Keyed by each producer's own queue name: a row reaches the producer of its topic, whose schema checks it. */
  private readonly byTopic = new Map<OutboxTopic, OutboxQueueProducer>();

  constructor(
    producers: OutboxQueueProducer[],
    private readonly logger?: PublishLogger,
  ) {
    for (const p of producers) this.byTopic.set(p.definition.name, p);
  }

  topics(): OutboxTopic[] {
    return [...this.byTopic.keys()];
  }

  /** Returns the rows whose payload broke their queue's schema (never queued: see publishOne). */
  async publish(rows: PublishableOutboxRow[], now = Date.now()): Promise<InvalidRow[]> {
    const invalid = await Promise.all(rows.map((row) => this.publishOne(row, now)));
    return invalid.filter((r): r is InvalidRow => r !== null);
  }

  /**
   * For the relay: the row's current job when it has failed for good (kept in Redis as failed, which
   * makes re-adding its id a no-op until it is removed), else null.
   */
  async failedJob(row: PublishableOutboxRow): Promise<FailedJob | null> {
    const producer = this.byTopic.get(row.topic);
    if (!producer) return null;
    const job = await producer.queue.getJob(outboxJobId(row.id, row.run));
    // Read before isFailed(): a job read while still running has no finishedOn even if it fails just
    // after; it counts on the next pass, with the same key every reader sees.
    if (!job || job.finishedOn === undefined || !(await job.isFailed())) return null;
    return { key: `${job.id}@${job.finishedOn}`, reason: job.failedReason, remove: () => job.remove() };
  }

  private async publishOne(row: PublishableOutboxRow, now: number): Promise<InvalidRow | null> {
    if (isHeld(row.availableAt)) return null;
    const producer = this.byTopic.get(row.topic);
    if (!producer) {
      this.logger?.warn(
        { topic: row.topic, outboxId: row.id },
        'no producer for outbox topic; the relay of its consumer will publish it',
      );
      return null;
    }
    try {
      await producer.add(
        { ...row.payload, outbox_id: row.id },
        { jobId: outboxJobId(row.id, row.run), delayMs: row.availableAt.getTime() - now },
      );
    } catch (err) {
      if (err instanceof InvalidPayloadError) {
        // Our code cannot write such a row (its payload type is the queue's); one written before a
        // schema changed, or by hand, can. Publishing it again cannot help and dropping it would lose
        // work: it is returned, and the relay parks it for a person to fix.
        this.logger?.error(
          { err, topic: row.topic, outboxId: row.id },
          'outbox row breaks its queue schema; it will not run until fixed by hand',
        );
        return { row, reason: err.message };
      }
      this.logger?.warn({ err, topic: row.topic, outboxId: row.id }, 'outbox publish failed; the relay will retry');
    }
    return null;
  }
}

/** A publisher with one producer per queue definition; close() closes them all. */
export function createOutboxPublisher(
  definitions: OutboxQueueDefinition[],
  options: ProducerOptions,
  logger?: PublishLogger,
): { publisher: OutboxPublisher; close(): Promise<void> } {
  const producers = definitions.map((d) => new QueueProducer<QueueCatalog[OutboxTopic], OutboxTopic>(d, options));
  return {
    publisher: new OutboxPublisher(producers, logger),
    close: async () => {
      await Promise.all(producers.map((p) => p.close()));
    },
  };
}
