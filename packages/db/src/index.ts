export { createDb, type Db, type Tx, type DbOptions } from './client.js';
export { readTransactionStatus, type TransactionStatusRow } from './transaction-status.js';
export { createServiceDb } from './demo-data.js';
export { Prisma, type Transaction, type Merchant, type WebhookEvent, type Refund, type StaffUser } from './generated/prisma/client.js';
export { runTransaction, isRetryableTransactionError, type RunTransactionOptions } from './run-transaction.js';
export { isDatabaseUnavailable } from './database-unavailable.js';
export { isUniqueViolation } from './transactions/create-cashin.js';
export { HELD, insertOutbox, completeOutbox, findOverdueOutbox, rescheduleOutbox, type OutboxRow } from './outbox.js';
export { recordFailedRun, listParkedJobs, countParkedJobs, unparkJob, type FailedRun, type ParkedJob } from './outbox-parking.js';
