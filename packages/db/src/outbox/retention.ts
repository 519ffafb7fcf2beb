import type { Db } from '../database/index.js';

/**
 * What happens to the rows of every table (docs/architecture.md, "Retention"). Money and audit are
 * kept for ever: the ledger must always re-add to the balances (ledger:verify), the audit log is
 * hash-chained (audit-chain.ts: a deleted row breaks the chain), a transaction or refund is what a
 * merchant's statement, export or dispute refers to. Only the two tables of operational bookkeeping
 * are pruned. A table missing here fails retention.test.ts: a new table needs a decision.
 */
export const TABLE_RETENTION = {
  merchants: 'kept',
  api_keys: 'kept',
  subsidiaries: 'kept',
  operator_accounts: 'kept',
  staff_users: 'kept',
  // The audit log references them (merchant_user_id): a person who left keeps the row its actions name.
  merchant_users: 'kept',
  // Used codes stay, so a used code can never be taken for an unused one; replaced at each re-enrolment.
  merchant_user_recovery_codes: 'kept',
  // One row per invitation or password-reset link, holding only a SHA-256 of its token: few, and the audit
  // log names each invitation (target_id) and says when a link was used. Kept.
  merchant_invitations: 'kept',
  merchant_password_resets: 'kept',
  // A link is named by the payments made through it (transactions.payment_link_id): kept like them.
  payment_links: 'kept',
  transactions: 'kept',
  transaction_events: 'kept',
  refunds: 'kept',
  ledger_accounts: 'kept',
  journal_entries: 'kept',
  audit_log: 'kept',
  // The merchant's API lists them (GET /webhook-events) and a re-send needs the row: kept; only the
  // attempts of finished ones are pruned.
  webhook_events: 'kept',
  webhook_attempts: 'pruned',
  outbox: 'pruned',
  // Reconciliation (docs/reconciliation.md): the operator's word, each day's result and each case are the
  // evidence behind the ledger's reconciliation postings: kept like the ledger.
  operator_records: 'kept',
  reconciliation_runs: 'kept',
  reconciliation_cases: 'kept',
  // One row, updated in place by the read replicas' probes (read-replica.ts): nothing to prune.
  replica_heartbeat: 'kept',
} as const;

export type PrunedTable = {
  [T in keyof typeof TABLE_RETENTION]: (typeof TABLE_RETENTION)[T] extends 'pruned' ? T : never;
}[keyof typeof TABLE_RETENTION];

export interface RetentionPolicy {
  /** Completed outbox rows are deleted this long after completion. */
  outboxDays: number;
  /** Attempts of a delivered or abandoned webhook event are deleted this long after the event ended. */
  webhookAttemptsDays: number;
  /** Rows per DELETE: each batch is its own short statement, so no lock is held for long. */
  batchSize: number;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * One batch: completed outbox rows (never an open or parked one) completed before `before`, oldest
 * first. SKIP LOCKED: another replica's run deleting the same rows is passed over, not waited for.
 */
async function deleteCompletedOutbox(db: Db, before: Date, limit: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM outbox WHERE id IN (
      SELECT id FROM outbox
       WHERE completed_at IS NOT NULL AND completed_at < ${before}::timestamptz
       ORDER BY completed_at LIMIT ${limit}
         FOR UPDATE SKIP LOCKED)`;
}

/**
 * One batch: the attempts of webhook events that ended (DELIVERED or ABANDONED) before `before`, so an
 * event's history goes whole, never its older attempts alone. An event still being delivered (PENDING,
 * a re-sent one included) keeps all of its attempts. The event's updated_at is when its last attempt
 * ended; its attempts are all older, hence the created_at bound that lets the index drive the scan.
 */
async function deleteFinishedWebhookAttempts(db: Db, before: Date, limit: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM webhook_attempts WHERE id IN (
      SELECT a.id FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id
       WHERE a.created_at < ${before}::timestamptz
         AND e.status IN ('DELIVERED', 'ABANDONED') AND e.updated_at < ${before}::timestamptz
       ORDER BY a.created_at LIMIT ${limit}
         FOR UPDATE OF a SKIP LOCKED)`;
}

/**
 * Deletes what the policy says may go, batch after batch until a batch comes back short, and returns
 * the rows deleted per table. Idempotent (a second run finds nothing), and safe on several replicas at
 * once. `onBatch` sees every batch as it commits (the worker's counter).
 */
export async function pruneOperationalRows(
  db: Db,
  policy: RetentionPolicy,
  now: Date = new Date(),
  onBatch?: (table: PrunedTable, deleted: number) => void,
): Promise<Record<PrunedTable, number>> {
  const prune = async (
    table: PrunedTable,
    before: Date,
    batch: (db: Db, before: Date, limit: number) => Promise<number>,
  ) => {
    let total = 0;
    for (;;) {
      const n = await batch(db, before, policy.batchSize);
      total += n;
      if (n > 0) onBatch?.(table, n);
      if (n < policy.batchSize) return total;
    }
  };
  return {
    outbox: await prune('outbox', new Date(now.getTime() - policy.outboxDays * DAY_MS), deleteCompletedOutbox),
    webhook_attempts: await prune(
      'webhook_attempts',
      new Date(now.getTime() - policy.webhookAttemptsDays * DAY_MS),
      deleteFinishedWebhookAttempts,
    ),
  };
}
