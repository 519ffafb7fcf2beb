import { unparkJob } from '@mm/db/outbox';
import { recordAudit } from '@mm/db/staff';
import type { AuditContext } from '../audit-context.js';
import type { DbDeps } from '../deps.js';

export interface RunAgainOutcome {
  ran: string[];
  /** Not parked any more (run again by someone else meanwhile, done, or unknown): nothing changed for them. */
  skipped: string[];
}

/**
 * A person decides that parked jobs may run again (the cause fixed, or worth one more try): each row is
 * unparked with its own audit row in its own database transaction, so one failure does not undo the
 * others, as for re-sent webhooks.
 *
 * Nothing is published from here: the back-office has producers for two queues only, and the relay of
 * each queue's worker publishes the unparked row (due now, a new job id) within OUTBOX_GRACE_MS. The
 * failed job of the last run stays in Redis for the dashboard; the new run does not collide with it.
 */
export async function runParkedJobsAgain(
  deps: DbDeps,
  context: AuditContext,
  outboxIds: string[],
): Promise<RunAgainOutcome> {
  const outcome: RunAgainOutcome = { ran: [], skipped: [] };
  for (const outboxId of outboxIds) {
    const ran = await deps.db.$transaction(async (tx) => {
      const before = await tx.outbox.findUnique({
        where: { id: outboxId },
        select: { topic: true, run: true, failedRuns: true, lastError: true, parkedAt: true, completedAt: true },
      });
      if (!before || before.parkedAt === null || before.completedAt !== null) return false;
      // Re-checks "parked" in the update itself: of two staff running it again at once, one wins.
      if (!(await unparkJob(tx, outboxId))) return false;
      await recordAudit(tx, {
        ...context,
        action: 'job.run_again',
        targetType: 'outbox',
        targetId: outboxId,
        before: {
          topic: before.topic,
          parked_at: before.parkedAt,
          failed_runs: before.failedRuns,
          run: before.run,
          last_error: before.lastError,
        },
        after: { parked_at: null, failed_runs: 0, run: before.run + 1 },
      });
      return true;
    });
    (ran ? outcome.ran : outcome.skipped).push(outboxId);
  }
  return outcome;
}
