import type Joi from 'joi';
import type { JobsOptions } from 'bullmq';

/**
 * One queue: its name (never rename: jobs in Redis carry it), the schema its payload must satisfy,
 * and its retry policy. Producer and consumer both import the same definition. `N` is the name as a
 * literal type: the catalog (catalog.ts) keys each payload type by it.
 */
export interface QueueDefinition<P extends object, N extends string = string> {
  readonly name: N;
  readonly schema: Joi.ObjectSchema<P>;
  readonly jobOptions: JobsOptions;
}

/**
 * A schema written `Joi.object({ ... })` has no payload type (it is inferred `any` or `object`), which
 * would untype the queue's jobs: such a call asks for a second argument, and the compiler's message
 * shows this one. (A payload type with no required field is refused too: no queue has one.)
 */
type Refused = [schemaHasNoType: 'declare the payload type: Joi.object<Job, true>({ ... })'];
type UntypedSchema<P> = 0 extends 1 & P ? Refused : Record<string, never> extends P ? Refused : [];

/**
 * Both types are inferred: the name from `QUEUE_NAMES`, the payload from the schema, written
 * `Joi.object<Job, true>({ ... })` so that joi checks it has one rule per field of `Job`.
 */
export function defineQueue<P extends object, N extends string>(
  def: QueueDefinition<P, N>,
  ..._refused: UntypedSchema<P>
): QueueDefinition<P, N> {
  return def;
}

/** A job id per outbox row and run: adding it twice is a no-op while the first is still in Redis. */
export function outboxJobId(outboxId: string, run: number): string {
  return `${outboxId}_${run}`;
}
