import type { CategoryTotals, MatchCategory } from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * What the back-office reads of reconciliation (docs/reconciliation.md): the days reconciled, the cases
 * and one case with who resolved it. Reads only; changes go through recordDay and resolveCase.
 */

/** Where a page of days ended: the last row shown (the list is newest first). */
export interface RunCursor {
  businessDate: string;
  countryCode: string;
  operator: string;
}

export interface RunQuery {
  operator?: string;
  countryCode?: string;
  /** Clamped to 1..200. */
  limit: number;
  /** Days after this one in the list's order (older ones). */
  after?: RunCursor;
}

/** The last run of one operator account's business day. */
export interface RunSummary {
  countryCode: string;
  operator: string;
  /** YYYY-MM-DD (UTC). */
  businessDate: string;
  runs: number;
  sources: string[];
  /** Counts and amounts per category (MATCHED, the differences, PENDING), as the run found them. */
  totals: Partial<Record<MatchCategory, CategoryTotals>>;
  matched: number;
  /** Open cases of the day when the run finished. */
  openCasesAtRun: number;
  /** The cases found on this day that are still OPEN now (people resolve them after the run). */
  openCasesNow: number;
  finishedAt: Date;
}

interface RunRow {
  country_code: string;
  operator: string;
  business_date: Date;
  runs: number;
  sources: string[];
  totals: unknown;
  matched: number;
  open_cases: number;
  open_now: bigint;
  finished_at: Date;
}

const clamp = (limit: number) => Math.min(Math.max(Math.trunc(limit) || 1, 1), 200);
const day = (d: Date) => d.toISOString().slice(0, 10);

/** The days reconciled, newest day first (then country and operator), keyset-paged. */
export async function listReconciliationRuns(
  db: Db | Tx,
  q: RunQuery,
): Promise<{ rows: RunSummary[]; next: RunCursor | null }> {
  const limit = clamp(q.limit);
  const a = q.after ?? null;
  const rows = await db.$queryRaw<RunRow[]>`
    SELECT r.country_code, r.operator, r.business_date, r.runs, r.sources, r.totals, r.matched, r.open_cases, r.finished_at,
           (SELECT count(*) FROM reconciliation_cases c
             WHERE c.country_code = r.country_code AND c.operator = r.operator AND c.business_date = r.business_date AND c.state = 'OPEN') AS open_now
      FROM reconciliation_runs r
     WHERE (${q.operator ?? null}::text IS NULL OR r.operator = ${q.operator ?? null})
       AND (${q.countryCode ?? null}::text IS NULL OR r.country_code = ${q.countryCode ?? null})
       AND (${a?.businessDate ?? null}::date IS NULL
            OR (r.business_date, r.country_code, r.operator) < (${a?.businessDate ?? null}::date, ${a?.countryCode ?? ''}, ${a?.operator ?? ''}))
     ORDER BY r.business_date DESC, r.country_code DESC, r.operator DESC
     LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit).map((r): RunSummary => ({
    countryCode: r.country_code,
    operator: r.operator,
    businessDate: day(r.business_date),
    runs: r.runs,
    sources: r.sources,
    totals: (r.totals ?? {}) as RunSummary['totals'],
    matched: r.matched,
    openCasesAtRun: r.open_cases,
    openCasesNow: Number(r.open_now),
    finishedAt: r.finished_at,
  }));
  const last = page[page.length - 1];
  return {
    rows: page,
    next:
      rows.length > limit && last
        ? { businessDate: last.businessDate, countryCode: last.countryCode, operator: last.operator }
        : null,
  };
}

export interface CaseCursor {
  businessDate: string;
  id: string;
}

export interface CaseQuery {
  /** Absent: every state. */
  state?: 'OPEN' | 'RESOLVED';
  operator?: string;
  countryCode?: string;
  category?: string;
  /** One business day, YYYY-MM-DD. */
  businessDate?: string;
  /** Clamped to 1..200. */
  limit: number;
  after?: CaseCursor;
}

export interface CaseSummary {
  id: string;
  countryCode: string;
  operator: string;
  kind: string;
  recordKey: string;
  businessDate: string;
  category: string;
  state: string;
  resolution: string | null;
  currency: string;
  difference: bigint;
  transactionId: string | null;
  updatedAt: Date;
}

const SUMMARY = {
  id: true,
  countryCode: true,
  operator: true,
  kind: true,
  recordKey: true,
  businessDate: true,
  category: true,
  state: true,
  resolution: true,
  currency: true,
  difference: true,
  transactionId: true,
  updatedAt: true,
} as const satisfies Prisma.ReconciliationCaseSelect;

/** Cases, newest business day first (then by id, for a stable keyset), keyset-paged. */
export async function listReconciliationCases(
  db: Db | Tx,
  q: CaseQuery,
): Promise<{ rows: CaseSummary[]; next: CaseCursor | null }> {
  const limit = clamp(q.limit);
  const where: Prisma.ReconciliationCaseWhereInput = {
    ...(q.state ? { state: q.state } : {}),
    ...(q.operator ? { operator: q.operator } : {}),
    ...(q.countryCode ? { countryCode: q.countryCode } : {}),
    ...(q.category ? { category: q.category } : {}),
    ...(q.businessDate ? { businessDate: new Date(`${q.businessDate}T00:00:00Z`) } : {}),
  };
  if (q.after) {
    const at = new Date(`${q.after.businessDate}T00:00:00Z`);
    where.OR = [{ businessDate: { lt: at } }, { businessDate: at, id: { lt: q.after.id } }];
  }
  const rows = await db.reconciliationCase.findMany({
    where,
    select: SUMMARY,
    orderBy: [{ businessDate: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit).map((r): CaseSummary => ({ ...r, businessDate: day(r.businessDate) }));
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > limit && last ? { businessDate: last.businessDate, id: last.id } : null };
}

export interface CaseDetail extends CaseSummary {
  refundId: string | null;
  postedAmount: bigint;
  writtenOffAmount: bigint;
  journalIds: string[];
  /** Our side of the movement when the run saw it (null: unknown to us). */
  ours: Record<string, unknown> | null;
  /** The operator's side (null: missing at the operator). */
  theirs: Record<string, unknown> | null;
  note: string | null;
  resolvedAt: Date | null;
  /** The staff member who resolved it (null: nobody, or the service itself). */
  resolvedBy: { id: string; email: string; name: string } | null;
  createdAt: Date;
}

const asObject = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** One case with both sides and who resolved it; null when there is none with this id. */
export async function findReconciliationCase(db: Db | Tx, id: string): Promise<CaseDetail | null> {
  const c = await db.reconciliationCase.findUnique({ where: { id } });
  if (!c) return null;
  const staff = c.resolvedBy
    ? await db.staffUser.findUnique({ where: { id: c.resolvedBy }, select: { id: true, email: true, name: true } })
    : null;
  return {
    id: c.id,
    countryCode: c.countryCode,
    operator: c.operator,
    kind: c.kind,
    recordKey: c.recordKey,
    businessDate: day(c.businessDate),
    category: c.category,
    state: c.state,
    resolution: c.resolution,
    currency: c.currency,
    difference: c.difference,
    transactionId: c.transactionId,
    refundId: c.refundId,
    postedAmount: c.postedAmount,
    writtenOffAmount: c.writtenOffAmount,
    journalIds: c.journalIds,
    ours: asObject(c.ours),
    theirs: asObject(c.theirs),
    note: c.note,
    resolvedAt: c.resolvedAt,
    resolvedBy: staff,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
