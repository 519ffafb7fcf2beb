import { DomainError } from '@mm/domain';
import type { Tx } from '../database/index.js';
import { CASHOUT_REQUEST_TOPIC } from './create-cashout.js';
import { transition, type TransitionOutcome } from './moves/transition.js';

export interface CashoutDecision {
  transactionId: string;
  /** The staff member who decided (their email), kept on the history row. */
  decidedBy: string;
  now?: Date;
}

async function currentStatus(tx: Tx, transactionId: string): Promise<string | null> {
  const row = await tx.transaction.findFirst({
    where: { id: transactionId, type: 'CASHOUT' },
    select: { status: true },
  });
  return row?.status ?? null;
}

async function refuse(tx: Tx, transactionId: string, verb: string): Promise<never> {
  const status = await currentStatus(tx, transactionId);
  if (status === null) throw new DomainError('NOT_FOUND', 'no cash-out with this id');
  throw new DomainError('INVALID_STATE', `this cash-out cannot be ${verb}: it is ${status}, not AWAITING_APPROVAL`);
}

/**
 * AWAITING_APPROVAL -> INITIATED and its operator request, in the caller's database transaction
 * (where the audit row is written too). Only from AWAITING_APPROVAL: a second approval, or an
 * approval of a rejected cash-out, finds the row moved and is refused (INVALID_STATE), so the
 * operator is never asked twice.
 */
export async function approveCashout(tx: Tx, d: CashoutDecision): Promise<TransitionOutcome> {
  const moved = await transition(tx, {
    transactionId: d.transactionId,
    to: 'INITIATED',
    from: ['AWAITING_APPROVAL'],
    cause: 'cashout-approved',
    detail: { decided_by: d.decidedBy },
    now: d.now,
    jobs: [{ topic: CASHOUT_REQUEST_TOPIC, payload: { transaction_id: d.transactionId } }],
  });
  return moved ?? refuse(tx, d.transactionId, 'approved');
}

/** AWAITING_APPROVAL -> FAILED (REJECTED_BY_APPROVER): the reservation is released and the merchant notified. */
export async function rejectCashout(tx: Tx, d: CashoutDecision & { reason: string }): Promise<TransitionOutcome> {
  const moved = await transition(tx, {
    transactionId: d.transactionId,
    to: 'FAILED',
    from: ['AWAITING_APPROVAL'],
    cause: 'cashout-rejected',
    patch: { failureCode: 'REJECTED_BY_APPROVER', failureReason: d.reason },
    detail: { decided_by: d.decidedBy },
    now: d.now,
  });
  return moved ?? refuse(tx, d.transactionId, 'rejected');
}
