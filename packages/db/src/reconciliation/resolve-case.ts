import { DomainError, reconciliationPosting } from '@mm/domain';
import type { Tx } from '../database/index.js';
import { post } from '../ledger/index.js';

export type CaseVerdict = ({ resolution: 'ACCEPTED' } | { resolution: 'WRITTEN_OFF'; reason: string }) & {
  /**
   * What the person was shown this resolution would post (the difference not yet posted). When the case
   * changed since (a later run read the operator again), nothing is posted: CaseChangedError.
   */
  expectedToPost?: number;
};

/** The case no longer says what the person deciding on it was shown: they read it again and decide again. */
export class CaseChangedError extends Error {
  override name = 'CaseChangedError';
  constructor(
    readonly expectedToPost: number,
    readonly toPost: number,
  ) {
    super(`the case changed since it was shown: accepting it would now post ${toPost}, not ${expectedToPost}`);
  }
}

export interface ResolvedCase {
  id: string;
  before: {
    state: string;
    resolution: string | null;
    difference: number;
    posted_amount: number;
    written_off_amount: number;
  };
  after: {
    state: 'RESOLVED';
    resolution: CaseVerdict['resolution'];
    posted_amount: number;
    written_off_amount: number;
    journal_ids: string[];
    reason?: string;
  };
}

interface Row {
  id: string;
  country_code: string;
  currency: string;
  state: string;
  resolution: string | null;
  transaction_id: string | null;
  refund_id: string | null;
  difference: bigint;
  posted_amount: bigint;
  written_off_amount: bigint;
  ours: { currency?: string } | null;
  theirs: { currency?: string } | null;
  subsidiary_currency: string | null;
}

/**
 * A person's resolution of an OPEN case (docs/reconciliation.md). ACCEPTED: the operator's side is true,
 * so what it holds for us moves by the difference not yet posted, against the country's reconciliation
 * suspense. WRITTEN_OFF (a reason is required): accepted, then the company absorbs it, from suspense to
 * write-off. Under the case row's lock, so two people resolving it at once post once: the second finds it
 * RESOLVED (INVALID_STATE). The caller writes its audit row in the same transaction.
 */
export async function resolveCase(
  tx: Tx,
  caseId: string,
  verdict: CaseVerdict,
  staffId: string | null,
  now = new Date(),
): Promise<ResolvedCase> {
  const [c] = await tx.$queryRaw<Row[]>`
    SELECT c.id, c.country_code, c.currency, c.state, c.resolution, c.transaction_id, c.refund_id, c.difference, c.posted_amount,
           c.written_off_amount, c.ours, c.theirs, s.currency AS subsidiary_currency
      FROM reconciliation_cases c LEFT JOIN subsidiaries s ON s.country_code = c.country_code
     WHERE c.id = ${caseId}::uuid FOR UPDATE OF c`;
  if (!c) throw new DomainError('NOT_FOUND', 'no such reconciliation case');
  if (c.state !== 'OPEN') throw new DomainError('INVALID_STATE', `the case is already resolved (${c.resolution})`);
  // The ledger's accounts of a country are in its currency: an amount in another one cannot be posted as it is.
  const foreign =
    (c.subsidiary_currency !== null && c.currency !== c.subsidiary_currency) ||
    (c.ours?.currency !== undefined && c.theirs?.currency !== undefined && c.ours.currency !== c.theirs.currency);
  if (foreign)
    throw new DomainError(
      'INVALID_STATE',
      `the operator's record is in another currency than ours (${c.theirs?.currency ?? c.currency}): settle it with the operator and correct its record; nothing can be posted for it here`,
    );
  const reason = verdict.resolution === 'WRITTEN_OFF' ? verdict.reason.trim() : undefined;
  if (verdict.resolution === 'WRITTEN_OFF' && !reason)
    throw new DomainError('VALIDATION_ERROR', 'a write-off needs a reason', [{ field: 'reason', issue: 'required' }]);
  const scope = { merchantId: null, countryCode: c.country_code, currency: c.currency };
  const difference = Number(c.difference);
  const journals: string[] = [];
  const toAccept = difference - Number(c.posted_amount);
  if (verdict.expectedToPost !== undefined && verdict.expectedToPost !== toAccept)
    throw new CaseChangedError(verdict.expectedToPost, toAccept);
  if (toAccept !== 0)
    journals.push(await post(tx, scope, reconciliationPosting('ACCEPTED', toAccept), c.transaction_id, c.refund_id));
  // Accepted, the difference waits in suspense: a write-off of an earlier resolution is taken back.
  const writtenOff = verdict.resolution === 'WRITTEN_OFF' ? difference : 0;
  const toWriteOff = writtenOff - Number(c.written_off_amount);
  if (toWriteOff !== 0)
    journals.push(
      await post(tx, scope, reconciliationPosting('WRITTEN_OFF', toWriteOff), c.transaction_id, c.refund_id),
    );
  await tx.$executeRaw`
    UPDATE reconciliation_cases
       SET state = 'RESOLVED', resolution = ${verdict.resolution}, posted_amount = ${difference}, written_off_amount = ${writtenOff},
           journal_ids = journal_ids || ${journals}::uuid[], note = coalesce(${reason ?? null}, note), resolved_by = ${staffId}::uuid,
           resolved_at = ${now}, updated_at = ${now}
     WHERE id = ${caseId}::uuid`;
  return {
    id: caseId,
    before: {
      state: c.state,
      resolution: c.resolution,
      difference,
      posted_amount: Number(c.posted_amount),
      written_off_amount: Number(c.written_off_amount),
    },
    after: {
      state: 'RESOLVED',
      resolution: verdict.resolution,
      posted_amount: difference,
      written_off_amount: writtenOff,
      journal_ids: journals,
      ...(reason ? { reason } : {}),
    },
  };
}
