import type { KeepJobs } from 'bullmq';

/**
 * How long Redis keeps the jobs of a queue once they are finished (BullMQ removes them as each later
 * job of the queue finishes). Every queue definition sets both bounds: queue-definitions.test.ts.
 *
 * Failed jobs of the outbox queues are read back by the relay (OutboxPublisher.failedJob): a job that
 * used up its attempts is counted against its row, then removed, and a parked row's last failed job is
 * left for the Bull dashboard. So they are kept by age, far past the relay's pass (OUTBOX_GRACE_MS +
 * OUTBOX_RELAY_INTERVAL_MS, seconds), and by count only as a ceiling on Redis memory: a failed job
 * pushed out by 10 000 newer failures of its queue within one relay pass (hundreds a second) would be
 * run again uncounted, never lost.
 */
export const FAILED_JOBS_KEPT = { age: 7 * 24 * 3600, count: 10_000 } as const satisfies KeepJobs;

/**
 * Completed jobs of the outbox queues leave Redis at once: PostgreSQL has the outcome (the row's
 * completed_at, the transaction's history), and a completed job kept under its id would make re-adding
 * that id a no-op.
 */
export const COMPLETED_JOBS_KEPT = true;
