import type { OutboxTopic, QueueCatalog, QueueName } from './catalog.js';
import { cashoutRequests } from './definitions/cashout-requests.js';
import { customerCodes } from './definitions/customer-codes.js';
import { expiryChecks } from './definitions/expiry-checks.js';
import { operatorRequests } from './definitions/operator-requests.js';
import { operatorResults } from './definitions/operator-results.js';
import { refundRequests } from './definitions/refund-requests.js';
import { retentionRuns } from './definitions/retention-runs.js';
import { reconciliationRuns } from './definitions/reconciliation-runs.js';
import { webhookDeliveries } from './definitions/webhook-deliveries.js';
import type { QueueDefinition } from './queue-definition.js';

/**
 * Every queue, listed once: the catalog's types (catalog.ts), QUEUES and OUTBOX_QUEUES follow from it.
 * A new queue is added here, or no worker runs it and its jobs cannot be written to the outbox.
 */
export const DEFINITIONS = [
  operatorRequests,
  operatorResults,
  expiryChecks,
  webhookDeliveries,
  refundRequests,
  cashoutRequests,
  customerCodes,
  retentionRuns,
  reconciliationRuns,
] as const;

/** Every queue by name, as a worker runtime looks up the queues its handlers are keyed by. */
export const QUEUES = Object.fromEntries(DEFINITIONS.map((d) => [d.name, d])) as {
  [K in QueueName]: QueueDefinition<QueueCatalog[K], K>;
};

/** Fed by the outbox: the payload carries `outbox_id`, as OutboxTopic says of its type (the publisher sets it). */
function fedByOutbox(definition: QueueDefinition<object>): boolean {
  return Object.hasOwn((definition.schema.describe() as { keys?: object }).keys ?? {}, 'outbox_id');
}

/** The queues fed by outbox rows. */
export const OUTBOX_QUEUES = Object.fromEntries(DEFINITIONS.filter(fedByOutbox).map((d) => [d.name, d])) as {
  [K in OutboxTopic]: QueueDefinition<QueueCatalog[K], K>;
};

/** True for the queues fed by outbox rows: their consumer's relay re-publishes them. */
export function isOutboxTopic(name: QueueName): name is OutboxTopic {
  return Object.hasOwn(OUTBOX_QUEUES, name);
}
