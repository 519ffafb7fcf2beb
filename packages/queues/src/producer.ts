import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { QueueDefinition } from './queue-definition.js';
import { bullPrefix } from './redis-connection.js';

export interface ProducerOptions {
  connection: Redis;
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
    this.queue = new Queue(definition.name, { connection: options.connection, prefix: bullPrefix(options.redisPrefix) });
  }

  async add(payload: P, opts: { jobId?: string; delayMs?: number } = {}): Promise<void> {
    const { error, value } = this.definition.schema.validate(payload);
    if (error) throw new InvalidPayloadError(`invalid ${this.definition.name} payload: ${error.message}`);
    await this.queue.add(this.definition.name, value, {
      ...this.definition.jobOptions,
      ...this.options.jobOptions,
      ...(opts.jobId ? { jobId: opts.jobId } : {}),
      ...(opts.delayMs && opts.delayMs > 0 ? { delay: Math.ceil(opts.delayMs) } : {}),
    });
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
