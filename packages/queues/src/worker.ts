import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { QueueDefinition } from './queue-definition.js';
import { bullPrefix } from './redis-connection.js';

export interface WorkerOptions {
  connection: Redis;
  redisPrefix: string;
  concurrency?: number;
  /** Lock duration and stall check interval (BullMQ's defaults: 30 s). */
  lockMs?: number;
}

export type JobHandler<P> = (payload: P, job: Job) => Promise<void>;

/** A worker whose handler only ever sees payloads that satisfy the queue's schema. */
export function createWorker<P extends object>(def: QueueDefinition<P>, options: WorkerOptions, handler: JobHandler<P>): Worker {
  return new Worker(
    def.name,
    async (job: Job) => {
      const { error, value } = def.schema.validate(job.data);
      // A malformed payload will not get better on retry.
      if (error) throw new UnrecoverableError(`invalid ${def.name} payload: ${error.message}`);
      await handler(value as P, job);
    },
    {
      connection: options.connection,
      prefix: bullPrefix(options.redisPrefix),
      concurrency: options.concurrency ?? 10,
      ...(options.lockMs ? { lockDuration: options.lockMs, stalledInterval: options.lockMs } : {}),
    },
  );
}

/** True on the job's last try: the place to give up cleanly (fail the transaction, expire anyway). */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
