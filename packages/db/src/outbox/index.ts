export { countParkedJobs, listParkedJobs, type ParkedJob, recordFailedRun, unparkJob } from './outbox-parking.js';
export {
  completeOutbox,
  completeOutboxSql,
  findOverdueOutbox,
  HELD,
  insertOutbox,
  OUTBOX_ROW_COLUMNS,
  type OutboxJob,
  type OutboxRow,
  outboxRowOf,
  rescheduleOutbox,
} from './outbox.js';
export { type PrunedTable, pruneOperationalRows, type RetentionPolicy, TABLE_RETENTION } from './retention.js';
