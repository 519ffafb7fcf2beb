export { QUEUE_NAMES } from './queue-names.js';
export { defineQueue, outboxJobId, type QueueDefinition } from './queue-definition.js';
export {
  createRedisConnection,
  bullPrefix,
  isRedisUnavailable,
  redisCredentialsOf,
  redisTargetOf,
  type RedisClient,
  type RedisConnectionOptions,
  type RedisTarget,
} from './redis-connection.js';
export { rememberOnce } from './remember-once.js';
export { InvalidPayloadError, QueueProducer, type ProducerOptions } from './producer.js';
export { reportQueueDepth, jobDurations } from './queue-metrics.js';
export { createWorker, isFinalAttempt, type JobHandler, type WorkerLogger, type WorkerOptions } from './worker.js';
export {
  OutboxPublisher,
  createOutboxPublisher,
  type FailedJob,
  type InvalidRow,
  type OutboxQueueProducer,
} from './outbox-publisher.js';
export { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
export type { PublishableOutboxRow } from './outbox-row.js';
export type {
  OutboxJob,
  OutboxPayload,
  OutboxQueueDefinition,
  OutboxTopic,
  PayloadOf,
  QueueCatalog,
  QueueName,
} from './catalog.js';
export {
  announceTransactionUpdate,
  transactionUpdateOf,
  transactionUpdatesChannel,
  TransactionUpdateWaiter,
  type AcknowledgedFields,
  type HeardUpdate,
  type TransactionUpdate,
} from './transaction-updates.js';
export { operatorRequests, type OperatorRequestJob } from './definitions/operator-requests.js';
export {
  operatorResultJobOf,
  operatorResults,
  receiptOf,
  type OperatorResultJob,
  type OperatorResultReceipt,
} from './definitions/operator-results.js';
export { expiryChecks, type ExpiryCheckJob } from './definitions/expiry-checks.js';
export { webhookDeliveries, type WebhookDeliveryJob } from './definitions/webhook-deliveries.js';
export { AfterCommit, isAwaitingAck, type CommittedChange } from './after-commit.js';
export { refundRequests, type RefundRequestJob } from './definitions/refund-requests.js';
export { cashoutRequests, type CashoutRequestJob } from './definitions/cashout-requests.js';
export { customerCodes, type CustomerCodeJob } from './definitions/customer-codes.js';
export { retentionRuns, type RetentionRunJob } from './definitions/retention-runs.js';
export { reconciliationRuns, type ReconciliationRunJob } from './definitions/reconciliation-runs.js';
export { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from './job-retention.js';
export { OUTBOX_QUEUES, QUEUES, isOutboxTopic } from './queue-definitions.js';
