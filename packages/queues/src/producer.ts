import { Queue, type JobsOptions } from 'bullmq';
import type { RedisClient } from './redis-connection.js';
import type { QueueDefinition } from './queue-definition.js';
import { bullPrefix } from './redis-connection.js';

export interface ProducerOptions {
  connection: RedisClient;
  redisPrefix: string;
  /** Overrides of the definition's options, e.g. shorter backoff delays in tests. */
  jobOptions?: Partial<JobsOptions>;
}

/** A payload that breaks its queue's schema: sending it again will not help. */
export class InvalidPayloadError extends Error {
  override readonly name = 'InvalidPayloadError';
}

/** Typed producer: the payload is checked against the queue's schema before it reaches Redis. */
export class QueueProducer<P extends object, N extends string = string> {
  readonly queue: Queue;

  constructor(
    readonly definition: QueueDefinition<P, N>,
    private readonly options: ProducerOptions,
  ) {
    this.queue = new Queue(definition.name, {
      connection: options.connection,
      prefix: bullPrefix(options.redisPrefix),
    });
  }

  async add(payload: P, opts: { jobId?: string; delayMs?: number } = {}): Promise<void> {
    await this.queue.add(this.definition.name, this.checked(payload), {
      ...this.definition.jobOptions,
      ...this.options.jobOptions,
      ...(opts.jobId ? { jobId: opts.jobId } : {}),
      ...(opts.delayMs && opts.delayMs > 0 ? { delay: Math.ceil(opts.delayMs) } : {}),
    });
  }

  /**
   * A job every `everyMs`, from a job scheduler kept in Redis under `schedulerId`: an upsert, so every
   * replica calling it at start leaves one scheduler (the last call's interval), and one job per turn.
   */
  async schedule(schedulerId: string, everyMs: number, payload: P): Promise<void> {
    const data = this.checked(payload);
    await this.queue.upsertJobScheduler(
      schedulerId,
      { every: everyMs },
      {
        name: this.definition.name,
        data,
        opts: { ...this.definition.jobOptions, ...this.options.jobOptions },
      },
    );
  }

  /**
   * A job at each time of a cron pattern (5 fields, or 6 with seconds first), read in UTC, from a job
   * scheduler kept in Redis under `schedulerId`: an upsert, like `schedule`.
   */
  async scheduleCron(schedulerId: string, pattern: string, payload: P): Promise<void> {
    const data = this.checked(payload);
    await this.queue.upsertJobScheduler(
      schedulerId,
      { pattern, tz: 'UTC' },
      {
        name: this.definition.name,
        data,
        opts: { ...this.definition.jobOptions, ...this.options.jobOptions },
      },
    );
  }

  /** The job schedulers of this queue in Redis whose id starts with `prefix`: their id, and their pattern or interval. */
  async schedulers(
    prefix = '',
  ): Promise<{ id: string; pattern: string | null; tz: string | null; everyMs: number | null; next: number | null }[]> {
    const all = await this.queue.getJobSchedulers(0, -1, true);
    return all
      .filter((s) => s.key.startsWith(prefix))
      .map((s) => ({
        id: s.key,
        pattern: s.pattern ?? null,
        tz: s.tz ?? null,
        everyMs: s.every ? Number(s.every) : null,
        next: s.next ?? null,
      }));
  }

  /** Removes the scheduler (its next job included); false when there was none. */
  async unschedule(schedulerId: string): Promise<boolean> {
    return this.queue.removeJobScheduler(schedulerId);
  }

  private checked(payload: P): P {
    const { error, value } = this.definition.schema.validate(payload);
    if (error) throw new InvalidPayloadError(`invalid ${this.definition.name} payload: ${error.message}`);
    return value as P;
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
