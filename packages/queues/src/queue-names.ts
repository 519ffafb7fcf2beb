/**
 * Queue names. Never rename one: jobs waiting in Redis and outbox rows in PostgreSQL carry it.
 * This file has no imports so that the db package can name the topics of the outbox rows it writes.
 */
export const QUEUE_NAMES = {
  operatorRequests: 'operator-requests',
  operatorResults: 'operator-results',
  expiryChecks: 'expiry-checks',
  webhookDeliveries: 'webhook-deliveries',
  refundRequests: 'refund-requests',
  cashoutRequests: 'cashout-requests',
  customerCodes: 'customer-codes',
  retentionRuns: 'retention-runs',
  reconciliationRuns: 'reconciliation-runs',
} as const;
