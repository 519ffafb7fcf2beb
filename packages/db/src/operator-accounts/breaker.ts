/**
 * The automatic breaker's changes to an operator account (the worker processes, @mm/operators
 * OperatorBreaker): marked down after N unreachable answers in a row, marked up when a probe is
 * answered. Audited like a staff change (operator_account.mark_down / mark_up, same before/after),
 * with the actor `system:breaker` and no staff id.
 *
 * The row is the one truth between replicas: each change locks it first, so
 * - a mark-down applies only to an account that is up (never rewrites a staff reason, never writes twice
 *   when several replicas trip together);
 * - a mark-up applies only to an account the breaker marked down (its reason): a staff mark-down is
 *   never lifted automatically.
 */
import type { Db } from '../database/index.js';
import { recordAudit } from '../staff/index.js';
import { operatorAccountTargetId, type OperatorAccountKey } from './audited-changes.js';
import { lockOperatorAccount } from './summary.js';

export const BREAKER_ACTOR = 'system:breaker';

/** The reason the breaker writes: what staff read on /operators. */
export function breakerDownReason(consecutive: number): string {
  return `automatic: ${consecutive} consecutive unreachable answers`;
}

const BREAKER_REASON = /^automatic: \d+ consecutive unreachable answers$/;

export function isBreakerDownReason(reason: string | null): boolean {
  return reason !== null && BREAKER_REASON.test(reason);
}

/** Marks the account down with the breaker's reason unless it is down already; true when this call did. */
export async function markOperatorAccountDownByBreaker(
  db: Db,
  key: OperatorAccountKey,
  consecutive: number,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const account = await lockOperatorAccount(tx, key.countryCode, key.operator);
    if (!account || account.markedDownAt !== null) return false;
    const markedDownAt = new Date();
    const reason = breakerDownReason(consecutive);
    await tx.operatorAccount.update({
      where: { countryCode_operator: key },
      data: { markedDownAt, markedDownReason: reason, updatedAt: new Date() },
    });
    await recordAudit(tx, {
      staffId: null,
      actor: BREAKER_ACTOR,
      action: 'operator_account.mark_down',
      targetType: 'operator_account',
      targetId: operatorAccountTargetId(key),
      before: { markedDownAt: null, markedDownReason: null },
      after: { markedDownAt, markedDownReason: reason },
    });
    return true;
  });
}

/** Marks the account up if the breaker marked it down (never a staff mark-down); true when this call did. */
export async function markOperatorAccountUpByBreaker(db: Db, key: OperatorAccountKey): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const account = await lockOperatorAccount(tx, key.countryCode, key.operator);
    if (!account || account.markedDownAt === null || !isBreakerDownReason(account.markedDownReason)) return false;
    await tx.operatorAccount.update({
      where: { countryCode_operator: key },
      data: { markedDownAt: null, markedDownReason: null, updatedAt: new Date() },
    });
    await recordAudit(tx, {
      staffId: null,
      actor: BREAKER_ACTOR,
      action: 'operator_account.mark_up',
      targetType: 'operator_account',
      targetId: operatorAccountTargetId(key),
      before: { markedDownAt: account.markedDownAt, markedDownReason: account.markedDownReason },
      after: { markedDownAt: null, markedDownReason: null },
    });
    return true;
  });
}

/** The accounts down now by the breaker's hand (any replica's): each replica probes them. */
export async function listAccountsDownByBreaker(db: Db): Promise<OperatorAccountKey[]> {
  const rows = await db.operatorAccount.findMany({
    where: { markedDownAt: { not: null }, markedDownReason: { startsWith: 'automatic: ' } },
    select: { countryCode: true, operator: true, markedDownReason: true },
  });
  return rows
    .filter((r) => isBreakerDownReason(r.markedDownReason))
    .map((r) => ({ countryCode: r.countryCode, operator: r.operator }));
}
