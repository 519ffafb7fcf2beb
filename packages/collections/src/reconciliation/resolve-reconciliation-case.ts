import { CaseChangedError, resolveCase, type CaseVerdict } from '@mm/db/reconciliation';
import { recordAudit } from '@mm/db/staff';
import { DomainError } from '@mm/domain';
import type { AuditContext } from '../audit-context.js';
import type { DbDeps } from '../deps.js';

export type ResolveCaseOutcome =
  | { kind: 'resolved'; journalIds: string[] }
  /** Already resolved (by someone else, by a run, or a second click): nothing changed. `message` says how. */
  | { kind: 'already_resolved'; message: string }
  | { kind: 'invalid'; message: string }
  /** The case changed since the person was shown it (CaseChangedError): nothing posted, they decide again. */
  | { kind: 'changed'; message: string }
  | { kind: 'not_found' };

/**
 * A person's resolution of an OPEN reconciliation case (docs/reconciliation.md): ACCEPTED posts the
 * difference not yet posted between the operator's receivable and the country's reconciliation suspense;
 * WRITTEN_OFF (a reason) also moves it from suspense to write-off. The postings (resolveCase, under the
 * case row's lock) and the audit row commit together; of two people resolving the case at once, the
 * second finds it RESOLVED and nothing is posted twice.
 */
export async function resolveReconciliationCase(
  deps: DbDeps,
  context: AuditContext,
  caseId: string,
  verdict: CaseVerdict,
): Promise<ResolveCaseOutcome> {
  try {
    const resolved = await deps.db.$transaction(async (tx) => {
      const r = await resolveCase(tx, caseId, verdict, context.staffId);
      await recordAudit(tx, {
        ...context,
        action: verdict.resolution === 'ACCEPTED' ? 'reconciliation.accept' : 'reconciliation.write_off',
        targetType: 'reconciliation_case',
        targetId: caseId,
        before: r.before,
        after: r.after,
      });
      return r;
    });
    return { kind: 'resolved', journalIds: resolved.after.journal_ids };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return { kind: 'not_found' };
    if (err instanceof CaseChangedError) return { kind: 'changed', message: err.message };
    if (err instanceof DomainError && err.code === 'INVALID_STATE')
      return { kind: 'already_resolved', message: err.message };
    if (err instanceof DomainError && err.code === 'VALIDATION_ERROR') return { kind: 'invalid', message: err.message };
    throw err;
  }
}
