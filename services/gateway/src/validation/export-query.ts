import Joi from 'joi';
import { EXPORT_MAX_DAYS } from '@mm/collections';
import { invalidField, validate } from './validate.js';

// decisions 8: inclusive UTC calendar dates, at most EXPORT_MAX_DAYS (shared with the merchant portal's download).
export { EXPORT_MAX_DAYS };
const DAY_MS = 86_400_000;

export interface ExportQuery {
  date_from: string;
  date_to: string;
  country_code?: string;
  format: 'json' | 'csv';
  /** created_at >= from (date_from 00:00 UTC) */
  from: Date;
  /** created_at < until (the day after date_to, 00:00 UTC) */
  until: Date;
}

/** A YYYY-MM-DD string that names a day of the calendar (no 2025-02-30), or null. */
export function utcDay(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const d = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text ? d : null;
}

const day = Joi.string()
  .custom((v: string, h) => (utcDay(v) ? v : h.error('date.calendar')))
  .messages({ 'date.calendar': 'must be a calendar date YYYY-MM-DD' });

const schema = Joi.object({
  date_from: day.required(),
  date_to: day.required(),
  country_code: Joi.string()
    .pattern(/^[A-Z]{2}$/)
    .messages({ 'string.pattern.base': 'must be an ISO 3166 alpha-2 code such as CI' }),
  format: Joi.string().valid('json', 'csv'),
});

/** Validates the query string of GET /transactions/export; every problem names its parameter. */
export function parseExportQuery(query: unknown): ExportQuery {
  const q = validate(schema, query) as {
    date_from: string;
    date_to: string;
    country_code?: string;
    format?: 'json' | 'csv';
  };
  const from = utcDay(q.date_from) as Date;
  const to = utcDay(q.date_to) as Date;
  if (to < from) throw invalidField('date_to', 'must not be before date_from');
  const days = (to.getTime() - from.getTime()) / DAY_MS + 1;
  if (days > EXPORT_MAX_DAYS)
    throw invalidField('date_to', `must be at most ${EXPORT_MAX_DAYS} days from date_from, both included`);
  return {
    date_from: q.date_from,
    date_to: q.date_to,
    ...(q.country_code !== undefined ? { country_code: q.country_code } : {}),
    format: q.format ?? 'json',
    from,
    until: new Date(to.getTime() + DAY_MS),
  };
}
