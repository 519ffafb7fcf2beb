import { parse } from 'csv-parse/sync';
import { RECORD_KINDS, type RecordKind, type RecordOutcome } from '@mm/domain';
import type { DatedOperatorRecord } from '@mm/db/reconciliation';

/**
 * An operator's statement as a CSV file (docs/reconciliation.md): one line per movement, with a header
 * naming at least `kind, amount, currency, status, occurred_at` and `reference` or `operator_tx_id`.
 * Operators' own words for a status are accepted (SUCCESSFUL, SUCCEEDED, SUCCESSFULL, OK; FAILED, KO,
 * CANCELLED, EXPIRED, REJECTED; PENDING, PROCESSING, INITIATED, CREATED), and a cash-in may be called
 * COLLECTION or PAYMENT, a payout TRANSFER or DISBURSEMENT. A file with any bad line is refused whole,
 * naming each bad line: half a statement would make the other half look missing at the operator.
 */
export interface StatementLineError {
  /** 1-based, the header being line 1. */
  line: number;
  message: string;
}

export type ParsedStatement =
  { ok: true; records: DatedOperatorRecord[] } | { ok: false; errors: StatementLineError[] };

const OUTCOMES: Record<string, RecordOutcome> = {
  SUCCESS: 'SUCCESS',
  SUCCESSFUL: 'SUCCESS',
  SUCCESSFULL: 'SUCCESS',
  SUCCEEDED: 'SUCCESS',
  OK: 'SUCCESS',
  COMPLETED: 'SUCCESS',
  FAILED: 'FAILED',
  KO: 'FAILED',
  CANCELLED: 'FAILED',
  CANCELED: 'FAILED',
  EXPIRED: 'FAILED',
  REJECTED: 'FAILED',
  REVERSED: 'FAILED',
  PENDING: 'PENDING',
  PROCESSING: 'PENDING',
  INITIATED: 'PENDING',
  CREATED: 'PENDING',
};
const KINDS: Record<string, RecordKind> = {
  CASHIN: 'CASHIN',
  COLLECTION: 'CASHIN',
  PAYMENT: 'CASHIN',
  REQUESTTOPAY: 'CASHIN',
  REFUND: 'REFUND',
  PAYOUT: 'PAYOUT',
  TRANSFER: 'PAYOUT',
  DISBURSEMENT: 'PAYOUT',
  CASHOUT: 'PAYOUT',
};
const REQUIRED = ['kind', 'amount', 'currency', 'status', 'occurred_at'] as const;
/** A statement is read whole into memory: a bound keeps one upload from taking the process down. */
export const MAX_STATEMENT_LINES = 200_000;

export function parseStatement(text: string): ParsedStatement {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
      relax_column_count: false,
      to_line: MAX_STATEMENT_LINES + 2,
    }) as Record<string, string>[];
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? 0;
    return { ok: false, errors: [{ line, message: `not a CSV file this import can read: ${(err as Error).message}` }] };
  }
  if (rows.length === 0)
    return { ok: false, errors: [{ line: 1, message: 'no movement in the file (a header and one line at least)' }] };
  // Read one line past the bound: a longer file is refused, never imported in part.
  if (rows.length > MAX_STATEMENT_LINES)
    return {
      ok: false,
      errors: [
        {
          line: MAX_STATEMENT_LINES + 2,
          message: `more than ${MAX_STATEMENT_LINES} movements: split the statement by day`,
        },
      ],
    };
  const missing = REQUIRED.filter((c) => !(c in rows[0]!));
  if (missing.length > 0 || !('reference' in rows[0]! || 'operator_tx_id' in rows[0]!)) {
    return {
      ok: false,
      errors: [
        {
          line: 1,
          message: `the header lacks ${[...missing, ...('reference' in rows[0]! || 'operator_tx_id' in rows[0]! ? [] : ['reference or operator_tx_id'])].join(', ')}`,
        },
      ],
    };
  }
  const records: DatedOperatorRecord[] = [];
  const errors: StatementLineError[] = [];
  rows.forEach((row, i) => {
    const parsed = parseLine(row);
    if (typeof parsed === 'string') errors.push({ line: i + 2, message: parsed });
    else records.push(parsed);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, records };
}

function parseLine(row: Record<string, string>): DatedOperatorRecord | string {
  const kind = KINDS[(row.kind ?? '').toUpperCase().replace(/[-_ ]/g, '')];
  if (!kind) return `kind "${row.kind}" is none of ${RECORD_KINDS.join(', ')} (or an operator's word for one)`;
  const reference = row.reference || null;
  const operatorTxId = row.operator_tx_id || null;
  if (!reference && !operatorTxId) return 'neither reference nor operator_tx_id';
  if ((reference?.length ?? 0) > 100 || (operatorTxId?.length ?? 0) > 100)
    return 'reference and operator_tx_id are 100 characters at most';
  if (!/^\d{1,15}$/.test(row.amount ?? ''))
    return `amount "${row.amount}" is not a whole number of units (XOF and XAF have no decimals)`;
  const currency = (row.currency ?? '').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return `currency "${row.currency}" is not a 3-letter code`;
  const outcome = OUTCOMES[(row.status ?? '').toUpperCase()];
  if (!outcome) return `status "${row.status}" is not one this import knows (${Object.keys(OUTCOMES).join(', ')})`;
  const at = new Date(row.occurred_at ?? '');
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(row.occurred_at ?? ''))
    return `occurred_at "${row.occurred_at}" is not an ISO 8601 date or time`;
  return {
    kind,
    reference,
    operatorTxId,
    amount: Number(row.amount),
    currency,
    outcome,
    businessDate: at.toISOString().slice(0, 10),
    raw: row,
  };
}
