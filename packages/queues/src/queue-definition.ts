import type Joi from 'joi';
import type { JobsOptions } from 'bullmq';

/**
 * One queue: its name (never rename: jobs in Redis carry it), the schema its payload must satisfy,
 * and its retry policy. Producer and consumer both import the same definition.
 */
export interface QueueDefinition<P extends object> {
  readonly name: string;
  readonly schema: Joi.ObjectSchema<P>;
  readonly jobOptions: JobsOptions;
}

export function defineQueue<P extends object>(def: QueueDefinition<P>): QueueDefinition<P> {
  return def;
}

/** A job id per outbox row and run: adding it twice is a no-op while the first is still in Redis. */
export function outboxJobId(outboxId: string, run: number): string {
  return `${outboxId}_${run}`;
}
