import { automaticResolution, needsStatusConfirmation, type DifferenceCategory } from '@mm/domain';
import { runTransaction, type Db, type Tx } from '@mm/db';
import {
  reconciliationSlot,
  recordDay,
  type AccountKey,
  type DaySummary,
  type OurMovement,
  type RecordSource,
} from '@mm/db/reconciliation';
import { settleOperatorResult, type SettledResult } from '@mm/db/payments';
import { paymentLookupOf, type OperatorAdapter } from '@mm/operators';
import { collectOperatorRecords } from './collect-records.js';
import { matchDay } from './match-day.js';

export interface ReconcileDeps {
  db: Db;
  /** The account's adapter; null to reconcile only what is stored (imported statements). */
  adapter: Pick<OperatorAdapter, 'listRecords' | 'recordOf' | 'queryStatus'> | null;
  /**
   * Runs one database transaction that changes a payment and publishes its jobs once committed (a worker's
   * commitStep). Without it the jobs are written to the outbox only, and the consumers' outbox relays
   * publish them after their grace period (the admin command, which has no Redis).
   */
  commit?: (step: (tx: Tx) => Promise<SettledResult | null>) => Promise<SettledResult | null>;
  onError?(err: unknown, context: Record<string, unknown>): void;
}

/**
 * Reconciles one operator account's business day (docs/reconciliation.md): reads the operator's records
 * (collectOperatorRecords), pairs them with our movements, resolves the late successes by the rules already
 * decided (after the operator's status confirms them, with the same code as a callback: the merchant is
 * credited after EXPIRED, the customer paid back after FAILED), and records the day: a case for each other
 * difference. Running a day again reads the operator again and gives the same result for the same records.
 */
export async function reconcileDay(
  deps: ReconcileDeps,
  account: AccountKey,
  date: string,
  now = new Date(),
): Promise<DaySummary> {
  const sources: RecordSource[] = [];
  if (deps.adapter) {
    const source = await collectOperatorRecords(deps.db, deps.adapter, account, date);
    if (source) sources.push(source);
  }
  const automatic = deps.adapter
    ? await resolveLateSuccesses(deps, deps.adapter, account, date)
    : new Map<string, DifferenceCategory>();
  // Matched again inside the recording transaction, under the account's lock: what is recorded is the books
  // as they are then, whoever applied the late success (this run, a callback, another run).
  return recordDay(deps.db, account, date, (tx) => matchDay(tx, account, date), {
    sources,
    resolvedAutomatically: automatic,
    now,
  });
}

/**
 * The late successes of the day the operator's status confirms, applied by the rules already decided; the
 * slots of those that changed something, with the category they had. Only with an adapter to ask.
 */
async function resolveLateSuccesses(
  deps: ReconcileDeps,
  adapter: NonNullable<ReconcileDeps['adapter']>,
  account: AccountKey,
  date: string,
): Promise<Map<string, DifferenceCategory>> {
  const pairs = await matchDay(deps.db, account, date);
  // A difference a person already posted for is theirs: the service does not also apply it (a merchant
  // credited on top of an accepted case); the case is opened again if the books change under it.
  const decided = await deps.db.reconciliationCase.findMany({
    where: { countryCode: account.countryCode, operator: account.operator, postedAmount: { not: 0 } },
    select: { kind: true, recordKey: true },
  });
  const personal = new Set(decided.map((c) => reconciliationSlot(c.kind, c.recordKey)));
  const automatic = new Map<string, DifferenceCategory>();
  for (const pair of pairs) {
    if (!pair.ours || !automaticResolution(pair) || personal.has(reconciliationSlot(pair.kind, pair.key))) continue;
    try {
      if (await settleLateSuccess(deps, adapter, pair.ours))
        automatic.set(reconciliationSlot(pair.kind, pair.key), pair.category as DifferenceCategory);
    } catch (err) {
      // Left as a case: the next run (or a person's re-query) tries again.
      deps.onError?.(err, { transaction_id: pair.ours.transactionId, reference: pair.key });
    }
  }
  return automatic;
}

/** Applies the operator's own status for a cash-in it says it collected; true when that changed something. */
async function settleLateSuccess(
  deps: ReconcileDeps,
  adapter: NonNullable<ReconcileDeps['adapter']>,
  ours: OurMovement,
): Promise<boolean> {
  const p = ours.payment;
  const status = await adapter.queryStatus(
    paymentLookupOf({
      providerReference: p.partnerReference,
      providerSessionId: p.providerSessionId,
      msisdn: p.msisdn,
      amount: p.amount,
      currency: p.currency,
      countryCode: p.countryCode,
    }),
  );
  if (!status.found || needsStatusConfirmation(status) || status.providerState !== 'OK') return false;
  const step = (tx: Tx) => settleOperatorResult(tx, ours.transactionId, status, 'reconciliation');
  const settled = deps.commit ? await deps.commit(step) : await runTransaction(deps.db, step);
  return settled !== null;
}
