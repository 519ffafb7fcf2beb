import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { RedisClient } from './redis-connection.js';
import type { Registry } from '@mm/observability';
import { jobDurations, reportQueueDepth } from './queue-metrics.js';
import type { QueueDefinition } from './queue-definition.js';
import { bullPrefix } from './redis-connection.js';

export interface WorkerOptions {
  connection: RedisClient;
  redisPrefix: string;
  concurrency?: number;
  /** Lock duration and stall check interval (BullMQ's defaults: 30 s). */
  lockMs?: number;
  /** Where failed attempts (warn) and connection errors (error) go, and one line per job done (info). */
  logger: WorkerLogger;
  /** The process's registry: job durations and the queue's depth are reported there. */
  metrics?: Registry;
}

export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * A queue's handler. What it returns is kept as the job's return value (the Bull dashboard shows it: a
 * reconciliation run's counts); most return nothing.
 */
export type JobHandler<P, R = void> = (payload: P, job: Job) => Promise<R>;

/** The ids a job's payload carries, for its log lines: what an operator searches the logs by. */
function idsOf(data: unknown): Record<string, unknown> {
  const d = (data ?? {}) as Record<string, unknown>;
  const ids: Record<string, unknown> = {};
  for (const k of ['transaction_id', 'refund_id', 'event_id', 'provider_reference', 'outbox_id'])
    if (d[k] !== undefined) ids[k] = d[k];
  return ids;
}

/**
 * A worker whose handler only ever sees payloads that satisfy the queue's schema, and whose failures
 * and connection errors are logged: an 'error' event without a listener would crash the process (BullMQ
 * reconnects by itself), so no worker may be created without one.
 */
export function createWorker<P extends object>(
  def: QueueDefinition<P>,
  options: WorkerOptions,
  handler: JobHandler<P, unknown>,
): Worker {
  const durations = options.metrics ? jobDurations(options.metrics) : null;
  const worker = new Worker(
    def.name,
    async (job: Job) => {
      const started = performance.now();
      let outcome = 'failed';
      try {
        const { error, value } = def.schema.validate(job.data);
        // A malformed payload will not get better on retry.
        if (error) throw new UnrecoverableError(`invalid ${def.name} payload: ${error.message}`);
        const returned = await handler(value as P, job);
        outcome = 'completed';
        return returned;
      } finally {
        const ms = performance.now() - started;
        durations?.observe({ queue: def.name, outcome }, ms / 1000);
        if (outcome === 'completed')
          options.logger.info({ queue: def.name, jobId: job.id, ...idsOf(job.data), ms: Math.round(ms) }, 'job done');
      }
    },
    {
      connection: options.connection,
      prefix: bullPrefix(options.redisPrefix),
      concurrency: options.concurrency ?? 10,
      ...(options.lockMs ? { lockDuration: options.lockMs, stalledInterval: options.lockMs } : {}),
    },
  );
  worker.on('failed', (job, err) =>
    options.logger.warn(
      { err, queue: def.name, jobId: job?.id, ...idsOf(job?.data), attempts: job?.attemptsMade },
      'job failed',
    ),
  );
  worker.on('error', (err) => options.logger.error({ err, queue: def.name }, 'worker error'));
  if (options.metrics) {
    // Its own Queue on the worker's connection: counting jobs is a plain command, not a blocking one.
    const queue = new Queue(def.name, { connection: options.connection, prefix: bullPrefix(options.redisPrefix) });
    const unreport = reportQueueDepth(options.metrics, queue);
    worker.once('closed', () => {
      unreport();
      void queue.close().catch(() => undefined);
    });
  }
  return worker;
}

/** True on the job's last try: the place to give up cleanly (fail the transaction, expire anyway). */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
