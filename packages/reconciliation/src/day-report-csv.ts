import type { DayReport } from '@mm/db/reconciliation';
import { MATCH_CATEGORIES } from '@mm/domain';

/** The columns of the day report's CSV, in order. */
export const DAY_REPORT_CSV_COLUMNS = [
  'record',
  'date',
  'country_code',
  'operator',
  'reconciled_at',
  'category',
  'count',
  'amount',
  'currency',
  'case_id',
  'kind',
  'reference',
  'difference',
  'transaction_id',
  'opened_at',
] as const;

type Cell = string | number | null | undefined;

/**
 * The day report (dayReport of @mm/db/reconciliation) as one CSV table (RFC 4180: CRLF, quoted cells), for
 * a spreadsheet: per operator account, a `category` line for each category (its count and amount, in the
 * account's currency), then an `open_case` line for each case still open (its kind, reference, category and
 * difference). `reconciled_at` is empty on every line of an account whose day was never reconciled.
 * References come from the operators' files: a cell that a spreadsheet would run as a formula (= + - @,
 * a tab or CR first) is prefixed with a quote.
 */
export function dayReportCsv(report: DayReport): string {
  const lines = [line(DAY_REPORT_CSV_COLUMNS)];
  for (const a of report.accounts) {
    const at = a.run?.finished_at ?? null;
    for (const category of MATCH_CATEGORIES) {
      const t = a.by_category[category];
      lines.push(
        line([
          'category',
          report.date,
          a.country_code,
          a.operator,
          at,
          category,
          t.count,
          t.amount,
          a.currency,
          null,
          null,
          null,
          null,
          null,
          null,
        ]),
      );
    }
    for (const c of a.cases) {
      lines.push(
        line([
          'open_case',
          report.date,
          a.country_code,
          a.operator,
          at,
          c.category,
          null,
          Math.abs(c.difference),
          c.currency,
          c.id,
          c.kind,
          c.reference,
          c.difference,
          c.transaction_id,
          c.opened_at,
        ]),
      );
    }
  }
  return lines.join('');
}

const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
const NEEDS_QUOTES = /[",\r\n]/;

function cell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.has(value.charAt(0)) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function line(values: readonly Cell[]): string {
  return `${values.map(cell).join(',')}\r\n`;
}
