/**
 * The pieces of a GET search form (a search is a link people share) that the back-office's and the
 * merchant portal's payment searches read the same way: whole UTC days, the keyset cursor of the
 * "Older →" link, and a customer number in international form. Each app words its own messages.
 */
import { isUuid, parseMsisdn } from '@mm/domain';

export interface Cursor {
  createdAt: Date;
  id: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DAY_MS = 86_400_000;

/** A calendar day (what <input type="date"> sends) as the UTC midnight it starts at; null if not a real date. */
export function utcDay(value: string): Date | null {
  const m = DAY.exec(value);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  // Date.UTC rolls 2024-02-30 over to March: a date that does not round-trip was not a real one.
  return date.toISOString().slice(0, 10) === value ? date : null;
}

/** The "Older →" link's position: `<created_at ISO>_<id>` of the last row shown. */
export function encodeCursor(c: Cursor): string {
  return `${c.createdAt.toISOString()}_${c.id}`;
}

export function decodeCursor(value: string): Cursor | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_(.+)$/.exec(value);
  if (!m || !isUuid(m[2]!)) return null;
  const createdAt = new Date(m[1]!);
  return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id: m[2]!.toLowerCase() };
}

/**
 * The number as typed: international (E.164) form, normalised by parseMsisdn when it is a valid
 * number. Local spellings (0707...) are refused rather than guessed: the same digits mean different
 * numbers in different countries. A "+digits" value that the numbering plan rejects is still searched
 * as typed, in case an older plan accepted it.
 */
export function msisdnFilter(typed: string): string | null {
  const compact = typed.replace(/[\s.()-]/g, '');
  const parsed = parseMsisdn(compact);
  if (parsed) return parsed.e164;
  return /^\+[1-9]\d{5,14}$/.test(compact) ? compact : null;
}
