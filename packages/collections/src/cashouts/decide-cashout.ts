import type { Db } from '@mm/db';
import { recordAudit } from '@mm/db/staff';
import { approveCashout, rejectCashout } from '@mm/db/payments';
import { DomainError } from '@mm/domain';
import type { AfterCommit } from '@mm/queues';
import type { AuditContext } from '../audit-context.js';

export interface DecideCashoutDeps {
  db: Db;
  /** Publishes an approved cash-out's operator request once committed, and announces the move. */
  afterCommit: AfterCommit;
}

export type CashoutVerdict = { decision: 'approve' } | { decision: 'reject'; reason: string };

export type DecideCashoutOutcome =
  | { kind: 'decided' }
  /** Already approved or rejected (by someone else, or a double click): nothing changed. `message` says its status. */
  | { kind: 'already_decided'; message: string }
  | { kind: 'not_found' };

/**
 * An approver's decision on a cash-out AWAITING_APPROVAL (decisions 7): approved, it is sent to the
 * operator (INITIATED + its operator request); rejected, it is FAILED and its reservation released.
 * The move and its audit row commit together; a cash-out that has already moved is refused by the
 * conditional update in the database, so two approvers can never send it twice.
 */
export async function decideCashout(
  deps: DecideCashoutDeps,
  context: AuditContext,
  transactionId: string,
  verdict: CashoutVerdict,
): Promise<DecideCashoutOutcome> {
  try {
    const moved = await deps.db.$transaction(async (tx) => {
      const d = { transactionId, decidedBy: context.actor };
      const outcome =
        verdict.decision === 'approve'
          ? await approveCashout(tx, d)
          : await rejectCashout(tx, { ...d, reason: verdict.reason });
      await recordAudit(tx, {
        ...context,
        action: verdict.decision === 'approve' ? 'cashout.approve' : 'cashout.reject',
        targetType: 'transaction',
        targetId: transactionId,
        before: {
          status: outcome.from,
          amount: Number(outcome.transaction.amount),
          currency: outcome.transaction.currency,
        },
        after: {
          status: outcome.transaction.status,
          ...(verdict.decision === 'reject' ? { reason: verdict.reason } : {}),
        },
      });
      return outcome;
    });
    await deps.afterCommit.run([moved]);
    return { kind: 'decided' };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return { kind: 'not_found' };
    if (err instanceof DomainError && err.code === 'INVALID_STATE')
      return { kind: 'already_decided', message: err.message };
    throw err;
  }
}
