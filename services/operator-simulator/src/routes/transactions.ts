import { Router } from 'express';
import { isDay, linesOfDay, pageOf, type Plants, type StatementLine } from '@mm/fake-operator';
import type { SimulatorSource } from '../movements.js';
import type { WireState } from '../wire.js';

export interface TransactionsDeps {
  /** Every movement of the operator's books (movements.ts). */
  lines(): StatementLine<SimulatorSource>[];
  plants: Plants;
  pageSize: number;
}

/**
 * A line's state in the operator's own words, as its status reads say it: a cash-in's PENDING | OK | canceled |
 * KO, a refund's or a disbursement's OK | FAILED. A planted failure of a cash-in that had not failed reads KO.
 */
function wireStatus(line: StatementLine<SimulatorSource>): WireState | 'FAILED' {
  if (line.status === 'SUCCESS') return 'OK';
  if (line.status === 'PENDING') return 'PENDING';
  if (line.kind !== 'CASHIN') return 'FAILED';
  const state = line.source?.type === 'push' ? line.source.push.state : null;
  return state === 'canceled' || state === 'KO' ? state : 'KO';
}

/** The customer's number of a movement: the push's, the refunded push's, the beneficiary's. */
function msisdnOf(line: StatementLine<SimulatorSource>, pushes: ReadonlyMap<string | null, string>): string | null {
  switch (line.source?.type) {
    case 'push':
      return line.source.push.msisdn;
    case 'disbursement':
      return line.source.disbursement.msisdn;
    case 'refund':
      return pushes.get(line.source.refund.originalPartnerReference) ?? null;
    default:
      return null;
  }
}

function itemOf(line: StatementLine<SimulatorSource>, pushes: ReadonlyMap<string | null, string>) {
  return {
    kind: line.kind,
    partner_reference: line.reference,
    ...(line.source?.type === 'refund'
      ? { original_partner_reference: line.source.refund.originalPartnerReference }
      : {}),
    id: line.operatorTxId,
    amount: line.amount,
    currency: line.currency,
    status: wireStatus(line),
    created_at: new Date(line.occurredAtMs).toISOString(),
    msisdn: msisdnOf(line, pushes),
  };
}

/**
 * GET /transactions?date=YYYY-MM-DD&after=<cursor> (under /v1, the operator's token): the movements the operator
 * registered that day (UTC), cash-ins, refunds and disbursements, by creation time, `pageSize` at a time;
 * `next` is the opaque cursor of the following page, null on the last.
 */
export function transactionsRouter(deps: TransactionsDeps): Router {
  const router = Router();
  router.get('/transactions', (req, res) => {
    const { date, after } = req.query;
    if (!isDay(date)) {
      res.status(400).json({ error: 'invalid_request', message: 'date must be a day, YYYY-MM-DD' });
      return;
    }
    const lines = deps.plants.apply(deps.lines());
    const pushes = new Map(
      lines.flatMap((l) => (l.source?.type === 'push' ? [[l.reference, l.source.push.msisdn] as const] : [])),
    );
    const page = pageOf(
      linesOfDay(lines, date),
      date,
      typeof after === 'string' && after !== '' ? after : null,
      deps.pageSize,
    );
    if (!page) {
      res.status(400).json({ error: 'invalid_request', message: "after is not a cursor of this day's list" });
      return;
    }
    res.json({ date, items: page.items.map((line) => itemOf(line, pushes)), next: page.next });
  });
  return router;
}
