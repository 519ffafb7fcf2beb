import { randomUUID } from 'node:crypto';
import {
  holdingDifference,
  isDifference,
  operatorRecordKey,
  totalsByCategory,
  type CategoryTotals,
  type DifferenceCategory,
  type MatchCategory,
  type MatchedPair,
  type OperatorRecord,
} from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import { runTransaction } from '../database/index.js';
import type { AccountKey, RecordSource } from './operator-records.js';
import type { OurMovement } from './our-records.js';

/** A pair of the day, our side with what links a case to it. */
export type DayPair = MatchedPair & { ours: OurMovement | null; theirs: OperatorRecord | null };

export interface DaySummary {
  operator: string;
  country_code: string;
  date: string;
  matched: number;
  by_category: Record<MatchCategory, CategoryTotals>;
  /** Cases of the day's movements still waiting for a person. */
  open_cases: number;
  /** Differences the service resolved itself in this run (late successes, decisions 4 and 13). */
  resolved_automatically: number;
  sources: RecordSource[];
}

interface CaseRow {
  id: string;
  kind: string;
  record_key: string;
  state: 'OPEN' | 'RESOLVED';
  resolution: string | null;
  posted_amount: bigint;
}

/**
 * Writes what a run found for one account's day: a case for each difference not explained already, the
 * resolution of cases whose movement now matches, and the day's counts. Idempotent: the same pairs give the
 * same cases and the same run row (only `runs` and `finished_at` change). A case whose resolution a person
 * chose stays resolved while the difference is what was accepted; if the difference changes (or
 * disappears after money was posted for it), it is opened again, and accepting it again posts the change.
 */
export async function recordDay(
  db: Db,
  account: AccountKey,
  date: string,
  /**
   * The day's pairs; better, how to compute them: then they are read inside this transaction, under the
   * account's lock, so what is recorded is what the books say now, whatever ran meanwhile (a callback, a
   * re-query, the admin command on the same day).
   */
  pairsOf: readonly DayPair[] | ((tx: Tx) => Promise<DayPair[]>),
  options: {
    sources: RecordSource[];
    /**
     * Pairs the run resolved itself before matching again (by `reconciliationSlot`), with the category they
     * had: their case is kept, resolved AUTOMATIC, so staff see what the service did.
     */
    resolvedAutomatically?: ReadonlyMap<string, DifferenceCategory>;
    now?: Date;
  },
): Promise<DaySummary> {
  const now = options.now ?? new Date();
  const automatic = options.resolvedAutomatically ?? new Map<string, DifferenceCategory>();
  const slot = reconciliationSlot;
  return runTransaction(db, async (tx) => {
    // One run of an account at a time (the daily job, a re-query on another replica, the admin command):
    // two would both find no case and insert one each, or record older pairs over newer ones.
    await lockAccount(tx, account);
    const pairs = typeof pairsOf === 'function' ? await pairsOf(tx) : pairsOf;
    // A movement first seen unknown to us (its operator key) or by the operator's id, then paired with ours:
    // its earlier case, under that other key, is the same movement's.
    const others = pairs.map((p) => (p.ours && p.theirs ? otherKeys(p) : []));
    const kinds = pairs.flatMap((p, i) => [p.kind, ...others[i]!.map(() => p.kind)]);
    const keys = pairs.flatMap((p, i) => [p.key, ...others[i]!]);
    const existing = await tx.$queryRaw<CaseRow[]>`
      SELECT id, kind, record_key, state, resolution, posted_amount FROM reconciliation_cases
       WHERE country_code = ${account.countryCode} AND operator = ${account.operator}
         AND (kind, record_key) IN (SELECT * FROM unnest(${kinds}::text[], ${keys}::text[]))
       ORDER BY id FOR UPDATE`;
    const byKey = new Map(existing.map((c) => [slot(c.kind, c.record_key), c]));
    let openCases = 0;
    for (const [i, pair] of pairs.entries()) {
      const found = byKey.get(slot(pair.kind, pair.key)) ?? null;
      const difference = holdingDifference(pair);
      const open = await settleCase(
        tx,
        account,
        date,
        pair,
        found,
        difference,
        automatic.get(slot(pair.kind, pair.key)) ?? null,
        now,
      );
      if (open) openCases += 1;
      for (const key of others[i]!) {
        const earlier = byKey.get(slot(pair.kind, key));
        if (earlier && (await settleCase(tx, account, date, { ...pair, category: 'MATCHED' }, earlier, 0, null, now)))
          openCases += 1;
      }
    }
    const byCategory = totalsByCategory(pairs);
    const statement = pairs.some((p) => (p.theirs as { source?: string } | null)?.source === 'STATEMENT');
    const summary: DaySummary = {
      operator: account.operator,
      country_code: account.countryCode,
      date,
      matched: byCategory.MATCHED.count,
      by_category: byCategory,
      open_cases: openCases,
      resolved_automatically: automatic.size,
      sources: [...new Set([...options.sources, ...(statement ? ['STATEMENT' as const] : [])])].sort(),
    };
    await tx.$executeRaw`
      INSERT INTO reconciliation_runs (country_code, operator, business_date, sources, totals, matched, open_cases, finished_at)
      VALUES (${account.countryCode}, ${account.operator}, ${date}::date, ${summary.sources}::text[], ${JSON.stringify(byCategory)}::jsonb,
              ${summary.matched}, ${openCases}, ${now})
      ON CONFLICT (country_code, operator, business_date) DO UPDATE
         SET runs = reconciliation_runs.runs + 1, sources = excluded.sources, totals = excluded.totals, matched = excluded.matched,
             open_cases = excluded.open_cases, finished_at = excluded.finished_at`;
    return summary;
  });
}

/** One writer of an account's cases at a time: two would both find no case and insert one each. */
async function lockAccount(tx: Tx, account: AccountKey): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`reconciliation:${account.countryCode}:${account.operator}`}, 0))`;
}

/**
 * The case of one pair seen outside a day's run (a confirmation whose amount differs, when it came), in the
 * caller's database transaction: under the account's lock, under the key a run of the day uses and by the same
 * rules (settleCase), so the day's run finds it as its own and goes on from it. The run's counts are not touched.
 */
export async function recordPairCase(
  tx: Tx,
  account: AccountKey,
  date: string,
  pair: DayPair,
  now = new Date(),
): Promise<void> {
  await lockAccount(tx, account);
  const [found] = await tx.$queryRaw<CaseRow[]>`
    SELECT id, kind, record_key, state, resolution, posted_amount FROM reconciliation_cases
     WHERE country_code = ${account.countryCode} AND operator = ${account.operator} AND kind = ${pair.kind} AND record_key = ${pair.key}
     FOR UPDATE`;
  await settleCase(tx, account, date, pair, found ?? null, holdingDifference(pair), null, now);
}

/** The keys a pair's operator record would have had alone (unknown to us): its reference, or its id. */
function otherKeys(pair: DayPair): string[] {
  const keys = new Set([
    operatorRecordKey(pair.theirs!),
    ...(pair.theirs!.operatorTxId ? [`op:${pair.theirs!.operatorTxId}`] : []),
  ]);
  keys.delete(pair.key);
  return [...keys];
}

/** How a run names one movement of an account: its kind and its key. */
export function reconciliationSlot(kind: string, key: string): string {
  return `${kind}\u0000${key}`;
}

/** The case of one pair after this run; true when it is open (waiting for a person). */
async function settleCase(
  tx: Tx,
  account: AccountKey,
  date: string,
  pair: DayPair,
  found: CaseRow | null,
  difference: number,
  resolvedAutomatically: DifferenceCategory | null,
  now: Date,
): Promise<boolean> {
  const ours = pair.ours ? snapshotOfOurs(pair.ours) : null;
  const theirs = pair.theirs ? JSON.stringify(pair.theirs) : null;
  // Our currency first: the country's ledger accounts are in it (another one at the operator is refused at resolution).
  const currency = pair.ours?.currency ?? pair.theirs?.currency ?? 'XOF';
  if (isDifference(pair.category)) {
    if (!found) {
      await tx.$executeRaw`
        INSERT INTO reconciliation_cases (id, country_code, operator, kind, record_key, business_date, category, state, transaction_id, refund_id,
                                          currency, difference, ours, theirs, created_at, updated_at)
        VALUES (${randomUUID()}::uuid, ${account.countryCode}, ${account.operator}, ${pair.kind}, ${pair.key}, ${date}::date, ${pair.category}, 'OPEN',
                ${pair.ours?.transactionId ?? null}::uuid, ${pair.ours?.refundId ?? null}::uuid, ${currency}, ${difference},
                ${ours}::jsonb, ${theirs}::jsonb, ${now}, ${now})`;
      return true;
    }
    const explained =
      found.state === 'RESOLVED' &&
      (found.resolution === 'ACCEPTED' || found.resolution === 'WRITTEN_OFF') &&
      Number(found.posted_amount) === difference;
    if (explained) return false;
    await tx.$executeRaw`
      UPDATE reconciliation_cases
         SET category = ${pair.category}, state = 'OPEN', resolution = NULL, difference = ${difference}, currency = ${currency},
             transaction_id = coalesce(transaction_id, ${pair.ours?.transactionId ?? null}::uuid), refund_id = coalesce(refund_id, ${pair.ours?.refundId ?? null}::uuid),
             ours = ${ours}::jsonb, theirs = ${theirs}::jsonb, updated_at = ${now},
             note = CASE WHEN state = 'RESOLVED' THEN 'opened again: the difference changed after it was resolved' ELSE note END,
             resolved_by = NULL, resolved_at = NULL
       WHERE id = ${found.id}::uuid`;
    return true;
  }
  if (pair.category === 'PENDING') return found?.state === 'OPEN';
  if (!found) {
    if (resolvedAutomatically) {
      await tx.$executeRaw`
        INSERT INTO reconciliation_cases (id, country_code, operator, kind, record_key, business_date, category, state, resolution, transaction_id, refund_id,
                                          currency, difference, ours, theirs, note, resolved_at, created_at, updated_at)
        VALUES (${randomUUID()}::uuid, ${account.countryCode}, ${account.operator}, ${pair.kind}, ${pair.key}, ${date}::date, ${resolvedAutomatically}, 'RESOLVED', 'AUTOMATIC',
                ${pair.ours?.transactionId ?? null}::uuid, ${pair.ours?.refundId ?? null}::uuid, ${currency}, 0, ${ours}::jsonb, ${theirs}::jsonb,
                'resolved by the rule already decided for a late success', ${now}, ${now}, ${now})`;
    }
    return false;
  }
  // Matched now. Money posted for an earlier difference is no longer explained: a person takes it back.
  if (Number(found.posted_amount) !== 0) {
    await tx.$executeRaw`
      UPDATE reconciliation_cases SET state = 'OPEN', resolution = NULL, difference = 0, ours = ${ours}::jsonb, theirs = ${theirs}::jsonb, updated_at = ${now},
             resolved_by = NULL, resolved_at = NULL,
             note = 'the movement matches now: what was posted for it must be taken back (accept the operator''s side)'
       WHERE id = ${found.id}::uuid AND (state = 'OPEN' OR difference <> 0)`;
    return true;
  }
  if (found.state === 'OPEN') {
    const resolution = resolvedAutomatically ? 'AUTOMATIC' : 'MATCHED_LATER';
    await tx.$executeRaw`
      UPDATE reconciliation_cases SET state = 'RESOLVED', resolution = ${resolution}, difference = 0, ours = ${ours}::jsonb, theirs = ${theirs}::jsonb,
             resolved_at = ${now}, updated_at = ${now}
       WHERE id = ${found.id}::uuid`;
  }
  return false;
}

function snapshotOfOurs(o: OurMovement): string {
  return JSON.stringify({
    kind: o.kind,
    reference: o.reference,
    operatorTxId: o.operatorTxId,
    amount: o.amount,
    currency: o.currency,
    outcome: o.outcome,
    status: o.status,
    transactionId: o.transactionId,
    refundId: o.refundId,
  });
}
