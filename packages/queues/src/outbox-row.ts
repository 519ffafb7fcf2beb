import type { OutboxJob, OutboxTopic } from './catalog.js';

/*
 * No run-time imports (the one above is `import type`, erased): the db package imports this file as
 * `@mm/queues/outbox-row` without loading joi or bullmq.
 */

export type { OutboxJob, OutboxPayload, OutboxTopic } from './catalog.js';

/**
 * An outbox row as the publisher needs it (the db package's OutboxRow is this type): a job of one
 * topic, whose payload is that topic's, plus the row's id (the job's `outbox_id`), when it is due and
 * which run of the row it is.
 */
export type PublishableOutboxRow<K extends OutboxTopic = OutboxTopic> = OutboxJob<K> & {
  id: string;
  availableAt: Date;
  run: number;
};

/**
 * available_at of a row that waits to be released (a webhook behind an earlier one of its
 * transaction): never published until then. The db package uses it (see above).
 */
export const HELD_UNTIL = new Date('9999-12-31T00:00:00.000Z');

export function isHeld(availableAt: Date): boolean {
  return availableAt.getTime() >= HELD_UNTIL.getTime();
}
