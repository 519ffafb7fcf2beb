/**
 * The Statements page's two GET forms, read from the query string: the export's range and format (the
 * API's rules: UTC days, both included, at most EXPORT_MAX_DAYS) and the statement's month. A bad value gives
 * a message in the user's language and nothing runs.
 */
import { EXPORT_MAX_DAYS } from '@mm/collections';
import { statementMonth, type StatementMonth } from '@mm/db/ledger';
import { DAY_MS, textField, utcDay } from '@mm/web';
import type { StatementsText } from '../i18n/statements.js';

export interface ExportForm {
  from: string;
  to: string;
  format: string;
}

export interface ParsedExportForm {
  form: ExportForm;
  /** Null when there are errors. */
  range: { dateFrom: string; dateTo: string; from: Date; until: Date; format: 'csv' | 'json' } | null;
  errors: string[];
}

export function parseExportForm(query: unknown, m: StatementsText): ParsedExportForm {
  const errors: string[] = [];
  const fields = { from: textField(query, 'from'), to: textField(query, 'to'), format: textField(query, 'format') };
  if (Object.values(fields).some((v) => v === null)) errors.push(m.errRepeated);
  const form = { from: fields.from ?? '', to: fields.to ?? '', format: fields.format || 'csv' };
  const from = utcDay(form.from);
  const to = utcDay(form.to);
  if (!from) errors.push(m.errFrom);
  if (!to) errors.push(m.errTo);
  if (from && to && to < from) errors.push(m.errFromAfterTo);
  if (from && to && (to.getTime() - from.getTime()) / DAY_MS + 1 > EXPORT_MAX_DAYS) errors.push(m.errTooLong);
  if (form.format !== 'csv' && form.format !== 'json') errors.push(m.errFormat);
  const range =
    errors.length === 0 && from && to
      ? {
          dateFrom: form.from,
          dateTo: form.to,
          from,
          until: new Date(to.getTime() + DAY_MS),
          format: form.format as 'csv' | 'json',
        }
      : null;
  return { form, range, errors };
}

/** `YYYY-MM` of the UTC month before the one of `now`: the statement shown by default. */
export function lastMonth(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

export interface ParsedMonth {
  value: string;
  month: StatementMonth | null;
  error: string | null;
}

/** The statement's month (default: last month); a month not started yet is refused. */
export function parseMonth(query: unknown, now: Date, m: StatementsText): ParsedMonth {
  const given = textField(query, 'month');
  if (given === null) return { value: '', month: null, error: m.errRepeated };
  const value = given || lastMonth(now);
  const month = statementMonth(value);
  if (!month) return { value, month: null, error: m.errMonth };
  if (month.start.getTime() > now.getTime()) return { value, month: null, error: m.errFutureMonth };
  return { value, month, error: null };
}
