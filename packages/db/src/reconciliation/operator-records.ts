import type { OperatorRecord } from '@mm/domain';
import type { Db, Tx } from '../database/index.js';

/** One operator account: a country's contract with one operator (operator_accounts). */
export interface AccountKey {
  countryCode: string;
  operator: string;
}

export type RecordSource = 'API' | 'STATUS_QUERY' | 'STATEMENT';

/** An operator record with the operator's day of the movement, as stored (operator_records). */
export interface DatedOperatorRecord extends OperatorRecord {
  /** The operator's business day of the movement, YYYY-MM-DD (UTC). */
  businessDate: string;
  raw?: unknown;
  /** Where the stored word came from (set when read back). */
  source?: RecordSource;
}

/**
 * The row a record is kept under: the operator's id of the movement when it gave one (two movements under
 * one of our references, a customer charged twice, are two rows), else our reference. A word without the
 * id and one with it on the same movement may so be two rows; matchRecords reads them as one movement.
 */
function storedKey(r: OperatorRecord): string {
  if (r.operatorTxId) return `op:${r.operatorTxId}`;
  if (r.reference) return `ref:${r.reference}`;
  throw new Error('an operator record needs a reference or an operator id');
}

/**
 * Keeps the operator's word on each movement: one row per movement of the account (storedKey), the newest
 * word replacing an older one (a statement imported after an API read, the same statement twice, a record
 * arriving days late). Returns how many rows were written.
 */
export async function saveOperatorRecords(
  db: Db | Tx,
  account: AccountKey,
  records: readonly DatedOperatorRecord[],
  source: RecordSource,
): Promise<number> {
  if (records.length === 0) return 0;
  const rows = records.map((r) => ({
    business_date: r.businessDate,
    kind: r.kind,
    record_key: storedKey(r),
    reference: r.reference,
    operator_tx_id: r.operatorTxId,
    amount: r.amount,
    currency: r.currency,
    outcome: r.outcome,
    raw: r.raw ?? null,
  }));
  // Two records of one movement in one batch: the later one is the operator's newest word.
  const unique = [...new Map(rows.map((r) => [`${r.kind}\u0000${r.record_key}`, r])).values()];
  return db.$executeRaw`
    INSERT INTO operator_records (country_code, operator, business_date, kind, record_key, reference, operator_tx_id, amount, currency, outcome, source, raw)
    SELECT ${account.countryCode}, ${account.operator}, r.business_date, r.kind, r.record_key, r.reference, r.operator_tx_id, r.amount, r.currency, r.outcome, ${source}, r.raw
      FROM jsonb_to_recordset(${JSON.stringify(unique)}::jsonb)
           AS r(business_date date, kind text, record_key text, reference text, operator_tx_id text, amount bigint, currency text, outcome text, raw jsonb)
    ON CONFLICT ON CONSTRAINT operator_records_key DO UPDATE
       SET business_date = excluded.business_date, reference = excluded.reference, operator_tx_id = excluded.operator_tx_id,
           amount = excluded.amount, currency = excluded.currency, outcome = excluded.outcome, source = excluded.source,
           raw = excluded.raw, received_at = now()`;
}

/**
 * Forgets what a status query once said about a movement the operator now says it does not know (MTN's
 * 404 after a record was read): only a status query's word, never a statement's or the list API's.
 */
export async function forgetStatusRecord(
  db: Db | Tx,
  account: AccountKey,
  kind: string,
  reference: string,
): Promise<void> {
  await db.$executeRaw`
    DELETE FROM operator_records
     WHERE country_code = ${account.countryCode} AND operator = ${account.operator} AND kind = ${kind}
       AND reference = ${reference} AND source = 'STATUS_QUERY'`;
}

interface RecordRow {
  business_date: Date;
  kind: OperatorRecord['kind'];
  reference: string | null;
  operator_tx_id: string | null;
  amount: bigint;
  currency: string;
  outcome: OperatorRecord['outcome'];
  source: RecordSource;
}

/**
 * The operator's records to compare with a day, oldest word first (matchRecords keeps the last one of a
 * movement): those of the day itself, and those of other days that
 * name one of `references` (our movements of the day: a movement the operator booked after midnight, or
 * whose record arrived days late, is still found).
 */
export async function operatorRecordsFor(
  db: Db | Tx,
  account: AccountKey,
  date: string,
  references: readonly string[],
  operatorTxIds: readonly string[],
): Promise<DatedOperatorRecord[]> {
  const rows = await db.$queryRaw<RecordRow[]>`
    SELECT business_date, kind, reference, operator_tx_id, amount, currency, outcome, source FROM operator_records
     WHERE country_code = ${account.countryCode} AND operator = ${account.operator}
       AND (business_date = ${date}::date OR reference = ANY(${references}::text[]) OR operator_tx_id = ANY(${operatorTxIds}::text[]))
     ORDER BY received_at, id`;
  return rows.map((r) => ({
    businessDate: r.business_date.toISOString().slice(0, 10),
    kind: r.kind,
    reference: r.reference,
    operatorTxId: r.operator_tx_id,
    amount: Number(r.amount),
    currency: r.currency,
    outcome: r.outcome,
    source: r.source,
  }));
}
