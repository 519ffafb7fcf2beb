import { randomUUID } from 'node:crypto';
import type { Db } from '@mm/db';
import { recordAudit } from '@mm/db/staff';
import { reconciliationRuns, type ReconciliationRunJob } from '@mm/queues';
import type { AuditContext } from '../audit-context.js';

/** Adds reconciliation-runs jobs: a QueueProducer of @mm/queues (the back-office's service.ts), a fake in tests. */
export interface ReconciliationRunQueue {
  add(payload: ReconciliationRunJob, opts?: { jobId?: string }): Promise<void>;
}

export interface ReconciliationRunDeps {
  db: Db;
  runs: ReconciliationRunQueue;
}

export type RequeryOutcome = { kind: 'queued'; job: ReconciliationRunJob; jobId: string } | { kind: 'not_found' };

/**
 * A person asks for a case's operator account and business day to be reconciled again (the operator
 * bridge runs it: it reads the operator again, applies what it says and updates the case). No money
 * moves here. The job is added inside the database transaction of its audit row, before it: if Redis
 * refuses the job, nothing is audited; if the commit fails after the job was added, a day is read once
 * more than the log says, which changes nothing (a run is idempotent).
 */
export async function requeryReconciliationDay(
  deps: ReconciliationRunDeps,
  context: AuditContext,
  caseId: string,
): Promise<RequeryOutcome> {
  return deps.db.$transaction(async (tx) => {
    const c = await tx.reconciliationCase.findUnique({
      where: { id: caseId },
      select: {
        countryCode: true,
        operator: true,
        businessDate: true,
        state: true,
        resolution: true,
        category: true,
        difference: true,
      },
    });
    if (!c) return { kind: 'not_found' } as const;
    const job: ReconciliationRunJob = {
      country_code: c.countryCode,
      operator: c.operator,
      date: c.businessDate.toISOString().slice(0, 10),
      trigger: 'manual',
    };
    // Its own id, named in the audit row: the run can be found in the Bull dashboard.
    const jobId = `requery-${randomUUID()}`;
    await deps.runs.add(job, { jobId });
    await recordAudit(tx, {
      ...context,
      action: 'reconciliation.requery',
      targetType: 'reconciliation_case',
      targetId: caseId,
      before: { state: c.state, resolution: c.resolution, category: c.category, difference: c.difference },
      after: { queue: reconciliationRuns.name, job_id: jobId, ...job },
    });
    return { kind: 'queued', job, jobId } as const;
  });
}
