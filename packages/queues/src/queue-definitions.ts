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

/** Every queue by name, as a worker runtime looks up the queues its handlers are keyed by. */
export const QUEUES: { [K in QueueName]: QueueDefinition<QueueCatalog[K], K> } = {
  'operator-requests': operatorRequests,
  'operator-results': operatorResults,
  'expiry-checks': expiryChecks,
  'webhook-deliveries': webhookDeliveries,
  'refund-requests': refundRequests,
  'cashout-requests': cashoutRequests,
  'customer-codes': customerCodes,
  'retention-runs': retentionRuns,
  'reconciliation-runs': reconciliationRuns,
};

/** The queues fed by outbox rows. Exhaustive by construction: one missing, or one not fed by the outbox, does not compile. */
export const OUTBOX_QUEUES: { [K in OutboxTopic]: QueueDefinition<QueueCatalog[K], K> } = {
  'operator-requests': operatorRequests,
  'expiry-checks': expiryChecks,
  'webhook-deliveries': webhookDeliveries,
  'refund-requests': refundRequests,
  'cashout-requests': cashoutRequests,
};

/** True for the queues fed by outbox rows: their consumer's relay re-publishes them. */
export function isOutboxTopic(name: QueueName): name is OutboxTopic {
  return Object.hasOwn(OUTBOX_QUEUES, name);
}
