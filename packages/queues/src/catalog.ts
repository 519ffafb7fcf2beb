import type { QueueDefinition } from './queue-definition.js';
import type { DEFINITIONS } from './queue-definitions.js';

/*
 * Types only (every import above is `import type`, erased at run time): the db package reaches this
 * file through outbox-row.ts without loading joi, bullmq or the definitions.
 */

/** Every queue definition, as DEFINITIONS lists them. */
type AnyQueue = (typeof DEFINITIONS)[number];

/** The payload type of a queue, as its schema was declared (`Joi.object<Job, true>`). */
export type PayloadOf<D> = D extends QueueDefinition<infer P, string> ? P : never;

/** Queue name -> the payload its workers receive, e.g. `QueueCatalog['refund-requests']` is RefundRequestJob. */
export type QueueCatalog = { [D in AnyQueue as D['name']]: PayloadOf<D> };

export type QueueName = keyof QueueCatalog;

/**
 * The queues fed by the outbox: those whose payload carries `outbox_id` (the publisher sets it to the
 * row's id). operator-results and customer-codes are not: the bridge's callback route and the payment
 * page add their jobs directly; nor are retention-runs and reconciliation-runs, added by job schedulers
 * (and by hand).
 */
export type OutboxTopic = { [K in QueueName]: QueueCatalog[K] extends { outbox_id: string } ? K : never }[QueueName];

/** What an outbox row of a topic stores: the job without `outbox_id`, which is the row's own id. */
export type OutboxPayload<K extends OutboxTopic> = Omit<QueueCatalog[K], 'outbox_id'>;

/**
 * One job to write to the outbox: a topic and the payload of that topic's queue. A payload of another
 * queue, or a topic that is no outbox queue, does not compile.
 */
export type OutboxJob<K extends OutboxTopic = OutboxTopic> = { [T in K]: { topic: T; payload: OutboxPayload<T> } }[K];

/**
 * The definition of a queue fed by the outbox, as the publisher takes it: operator-results' and customer-codes' are not.
 * Each definition pairs its own name and payload (defineQueue infers both); this type does not say
 * which payload goes with which name: the rows' type does, and the publisher routes them by name.
 */
export type OutboxQueueDefinition = QueueDefinition<QueueCatalog[OutboxTopic], OutboxTopic>;
