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
  /** Where failed attempts (warn) and connection errors (error) go. */
  logger: WorkerLogger;
}

export interface WorkerLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export type JobHandler<P> = (payload: P, job: Job) => Promise<void>;

/** A worker whose handler only ever sees payloads that satisfy the queue's schema. */
/**
 * A worker whose handler only ever sees payloads that satisfy the queue's schema, and whose failures
 * and connection errors are logged: an 'error' event without a listener would crash the process (BullMQ
 * reconnects by itself), so no worker may be created without one.
 */
export function createWorker<P extends object>(def: QueueDefinition<P>, options: WorkerOptions, handler: JobHandler<P>): Worker {
  const worker = new Worker(
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
  worker.on('failed', (job, err) => options.logger.warn({ err, queue: def.name, jobId: job?.id, attempts: job?.attemptsMade }, 'job failed'));
  worker.on('error', (err) => options.logger.error({ err, queue: def.name }, 'worker error'));
  return worker;
}

/** True on the job's last try: the place to give up cleanly (fail the transaction, expire anyway). */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
