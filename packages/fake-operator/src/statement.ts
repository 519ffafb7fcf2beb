import { createHash } from 'node:crypto';
import express from 'express';
import Joi from 'joi';
import { RECORD_KINDS, type RecordKind, type RecordOutcome } from '@mm/domain';

/**
 * An operator's own books for reconciliation tests, shared by every contract mock and the simulator: each one
 * says what it did as statement lines in ONE generic form (a CSV statement of a day), and a test plants
 * differences in them (another amount, a flipped outcome, a movement the operator has no record of, one we do
 * not know). A planted difference is the operator's word, not its behaviour: it changes what the operator
 * *tells* (its statement, its list API, its status queries) and nothing it does (a refund of a cash-in planted
 * FAILED is still decided on what really happened), and not `/_mock/records`, which stays what it really did.
 */

export interface StatementLine<S = unknown> {
  /** The mock's own unique id of the movement (its X-Reference-Id, pay token, session id...): a stable order. */
  lineId: string;
  kind: RecordKind;
  /** Our reference as the operator echoes it; null when it keeps none of ours (a Wave refund). */
  reference: string | null;
  /** The operator's id of the movement, when it gave one (a success's; none for a failure). */
  operatorTxId: string | null;
  amount: number;
  currency: string;
  status: RecordOutcome;
  /** When the movement happened, by the operator's clock: it belongs to that day (UTC). */
  occurredAtMs: number;
  /** The mock's own object behind the line, for its list API's fields; absent on a planted unknown record. */
  source?: S;
}

export type PlantedChange =
  /** The operator's record reports another amount. */
  | { type: 'amount'; amount: number }
  /** Its record says the other outcome. */
  | { type: 'status'; status: 'SUCCESS' | 'FAILED' }
  /** It has no record of it: gone from its statement and list, its status query answers "not found". */
  | { type: 'drop' };

/** A movement the operator has and we do not (`reference` any string). */
export interface UnknownRecordChange {
  type: 'unknown';
  kind: RecordKind;
  amount: number;
  currency: string;
  operator_tx_id?: string;
  /** When it happened (ISO 8601); by default when it was planted. */
  occurred_at?: string;
}

/** A stable id for a record planted SUCCESS that had none (the statement and the status query show the same). */
export function plantedTxId(reference: string): string {
  return `PL${createHash('sha256').update(reference).digest('hex').slice(0, 12).toUpperCase()}`;
}

/** A line as its planted change makes it. A planted failure has no operator id, as no real failure has. */
export function withChange<S>(
  line: StatementLine<S>,
  change: Exclude<PlantedChange, { type: 'drop' }>,
): StatementLine<S> {
  if (change.type === 'amount') return { ...line, amount: change.amount };
  if (change.status === 'FAILED') return { ...line, status: 'FAILED', operatorTxId: null };
  return { ...line, status: 'SUCCESS', operatorTxId: line.operatorTxId ?? plantedTxId(line.reference ?? line.lineId) };
}

/** The differences planted in one mock's books, by reference (or the operator's own id, for a record without ours). */
export class Plants {
  private readonly changes = new Map<string, PlantedChange>();
  private readonly unknown: StatementLine[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  plant(reference: string, change: PlantedChange | UnknownRecordChange): void {
    if (change.type !== 'unknown') {
      this.changes.set(reference, change);
      return;
    }
    this.unknown.push({
      lineId: `planted-${this.unknown.length + 1}`,
      kind: change.kind,
      reference,
      operatorTxId: change.operator_tx_id ?? plantedTxId(`${reference}:${this.unknown.length}`),
      amount: change.amount,
      currency: change.currency,
      status: 'SUCCESS',
      occurredAtMs: change.occurred_at ? Date.parse(change.occurred_at) : this.now(),
    });
  }

  /** The change planted on a record, named by our reference or by the operator's own id of it. */
  on(record: { reference: string | null; operatorTxId?: string | null }): PlantedChange | undefined {
    const byReference = record.reference ? this.changes.get(record.reference) : undefined;
    return byReference ?? (record.operatorTxId ? this.changes.get(record.operatorTxId) : undefined);
  }

  /** The lines as the operator's books tell them: changes applied, dropped ones gone, unknown ones added. */
  apply<S>(lines: readonly StatementLine<S>[]): StatementLine<S>[] {
    const told: StatementLine<S>[] = [];
    for (const line of lines) {
      const change = this.on(line);
      if (!change) told.push(line);
      else if (change.type !== 'drop') told.push(withChange(line, change));
    }
    return [...told, ...(this.unknown as StatementLine<S>[])];
  }

  clear(): void {
    this.changes.clear();
    this.unknown.length = 0;
  }
}

/** A calendar day, YYYY-MM-DD (a real date: 2026-02-30 is not one). */
export function isDay(date: unknown): date is string {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const ms = Date.parse(`${date}T00:00:00Z`);
  // Month 13 does not parse; February 30 does, as March 2.
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(date);
}

export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The order movements happened in (their time, then the mock's id: a total order). */
export const before = (a: StatementLine, b: StatementLine): number =>
  a.occurredAtMs - b.occurredAtMs || (a.lineId < b.lineId ? -1 : a.lineId > b.lineId ? 1 : 0);

/** The day's lines (UTC) in the order they happened. */
export function linesOfDay<S>(lines: readonly StatementLine<S>[], date: string): StatementLine<S>[] {
  return lines.filter((l) => dayOf(l.occurredAtMs) === date).sort(before);
}

/**
 * One page of a day's lines after an opaque cursor (the last line of the previous page: its time and id), so a
 * movement made while a day is being read lands after it and no line is skipped or listed twice. Null when the
 * cursor is not one of this day's.
 */
export function pageOf<S>(
  dayLines: readonly StatementLine<S>[],
  date: string,
  after: string | null,
  size: number,
): { items: StatementLine<S>[]; next: string | null } | null {
  let rest = dayLines;
  if (after !== null) {
    const at = cursorOf(after, date);
    if (!at) return null;
    rest = dayLines.filter((l) => before(l, { ...l, occurredAtMs: at.ms, lineId: at.lineId }) > 0);
  }
  const items = rest.slice(0, size);
  const last = items.at(-1);
  return { items, next: rest.length > size && last ? cursorFor(date, last) : null };
}

export function cursorFor(date: string, line: StatementLine): string {
  return Buffer.from(JSON.stringify([date, line.occurredAtMs, line.lineId])).toString('base64url');
}

function cursorOf(cursor: string, date: string): { ms: number; lineId: string } | null {
  try {
    const [d, ms, lineId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    return d === date && typeof ms === 'number' && typeof lineId === 'string' ? { ms, lineId } : null;
  } catch {
    return null;
  }
}

export const STATEMENT_HEADER = 'kind,reference,operator_tx_id,amount,currency,status,occurred_at';

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function statementCsv(lines: readonly StatementLine[]): string {
  const rows = lines.map((l) =>
    [
      l.kind,
      l.reference ?? '',
      l.operatorTxId ?? '',
      String(l.amount),
      l.currency,
      l.status,
      new Date(l.occurredAtMs).toISOString(),
    ]
      .map(csvField)
      .join(','),
  );
  return `${[STATEMENT_HEADER, ...rows].join('\r\n')}\r\n`;
}

const amount = () => Joi.number().positive().max(1e12).required();
const plantSchema = Joi.object({
  reference: Joi.string().min(1).max(255).required(),
  change: Joi.alternatives(
    Joi.object({ type: Joi.string().valid('amount').required(), amount: amount() }),
    Joi.object({
      type: Joi.string().valid('status').required(),
      status: Joi.string().valid('SUCCESS', 'FAILED').required(),
    }),
    Joi.object({ type: Joi.string().valid('drop').required() }),
    Joi.object({
      type: Joi.string().valid('unknown').required(),
      kind: Joi.string()
        .valid(...RECORD_KINDS)
        .required(),
      amount: amount(),
      currency: Joi.string()
        .pattern(/^[A-Z]{3}$/)
        .required(),
      operator_tx_id: Joi.string().min(1).max(64),
      occurred_at: Joi.string().isoDate(),
    }),
  ).required(),
}).prefs({ convert: false });

/**
 * `GET /statement?date=YYYY-MM-DD` (the day's CSV statement, planted differences applied) and `POST /plant
 * {reference, change}`, mounted under a mock's control routes (`/_mock`) or the simulator's sandbox.
 */
export function statementRoutes(o: { lines(): readonly StatementLine[]; plants: Plants }): express.Router {
  const router = express.Router();
  router.get('/statement', (req, res) => {
    const { date } = req.query;
    if (!isDay(date)) {
      res.status(400).json({ error: 'date must be a day, YYYY-MM-DD' });
      return;
    }
    res.type('text/csv').send(statementCsv(linesOfDay(o.plants.apply(o.lines()), date)));
  });
  router.post('/plant', express.json({ limit: '4kb' }), (req, res) => {
    const { value, error } = plantSchema.validate(req.body ?? {});
    if (error) {
      res.status(400).json({ error: error.message });
      return;
    }
    const { reference, change } = value as { reference: string; change: PlantedChange | UnknownRecordChange };
    o.plants.plant(reference, change);
    res.status(204).end();
  });
  return router;
}
