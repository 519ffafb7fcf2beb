import type { RecordOutcome } from '@mm/domain';
import { plantedTxId, type PlantedChange, type Plants, type StatementLine } from '@mm/fake-operator';
import type { MockPayout } from './payout-book.js';
import type { MockSession } from './session-book.js';

/** What is behind a line of Wave's books: a checkout, its refund, or a payout (for the list's own fields). */
export type WaveSource =
  | { type: 'checkout'; session: MockSession }
  | { type: 'refund'; session: MockSession }
  | { type: 'payout'; payout: MockPayout; transactionId: string | null };

const sessionOutcome = (s: MockSession): RecordOutcome =>
  s.payment_status === 'succeeded' ? 'SUCCESS' : s.checkout_status === 'expired' ? 'FAILED' : 'PENDING';
const payoutOutcome = (p: MockPayout): RecordOutcome =>
  p.status === 'succeeded' ? 'SUCCESS' : p.status === 'processing' ? 'PENDING' : 'FAILED';

/** How a checkout session is named in Wave's books: our client_reference, and its transaction once paid. */
export const sessionKey = (s: MockSession) => ({
  reference: s.client_reference,
  operatorTxId: s.payment_status === 'succeeded' ? s.transaction_id : null,
});
export const payoutKey = (p: MockPayout) => ({ reference: p.client_reference, operatorTxId: p.id });

/**
 * Wave's books as statement lines, each at the time it was executed: a checkout (by client_reference; an open
 * one, still payable, is PENDING), the refund of one (Wave keeps no reference of ours on it: named by the
 * session it gave back, which is what our books hold as its operator id), a payout (by client_reference and its
 * id, as our books hold it).
 */
export function waveStatementLines(
  sessions: readonly MockSession[],
  payouts: readonly MockPayout[],
  payoutTransactionId: (id: string) => string | null,
): StatementLine<WaveSource>[] {
  const checkouts = sessions.map((s): StatementLine<WaveSource> => ({
    lineId: s.id,
    kind: 'CASHIN',
    ...sessionKey(s),
    amount: Number(s.amount),
    currency: s.currency,
    status: sessionOutcome(s),
    occurredAtMs: s.completedMs ?? s.createdMs,
    source: { type: 'checkout', session: s },
  }));
  const refunds = sessions
    .filter((s) => s.refundsPaid > 0)
    .map((s): StatementLine<WaveSource> => ({
      lineId: `${s.id}:refund`,
      kind: 'REFUND',
      reference: null,
      operatorTxId: s.id,
      amount: Number(s.amount),
      currency: s.currency,
      status: 'SUCCESS',
      occurredAtMs: s.refundedMs ?? s.createdMs,
      source: { type: 'refund', session: s },
    }));
  const paid = payouts.map((p): StatementLine<WaveSource> => ({
    lineId: p.id,
    kind: 'PAYOUT',
    ...payoutKey(p),
    amount: Number(p.receive_amount),
    currency: p.currency,
    status: payoutOutcome(p),
    occurredAtMs: Date.parse(p.timestamp),
    source: { type: 'payout', payout: p, transactionId: payoutTransactionId(p.id) },
  }));
  return [...checkouts, ...refunds, ...paid];
}

/**
 * A session's wire view (GET, search) once a difference is planted on it; null when planted away (404, left
 * out of a search). A planted failure reads expired + cancelled, a planted success complete + succeeded.
 */
export function plantedSession(
  view: Record<string, unknown>,
  s: MockSession,
  change: PlantedChange | undefined,
): Record<string, unknown> | null {
  if (!change) return view;
  if (change.type === 'drop') return null;
  if (change.type === 'amount') return { ...view, amount: String(change.amount) };
  if (change.status === 'FAILED')
    return { ...view, checkout_status: 'expired', payment_status: 'cancelled', transaction_id: null };
  return {
    ...view,
    checkout_status: 'complete',
    payment_status: 'succeeded',
    last_payment_error: null,
    transaction_id: s.transaction_id ?? plantedTxId(s.client_reference ?? s.id),
  };
}

/**
 * A session as its webhook event tells it: an amount planted on it is Wave's word everywhere, its signed events
 * included (a test's webhook of another amount); a planted outcome or drop is its books' word (statement, list,
 * reads), while the event still announces what the customer did.
 */
export function eventSession(view: Record<string, unknown>, plants: Plants): Record<string, unknown> {
  const change = plants.on({ reference: typeof view.client_reference === 'string' ? view.client_reference : null });
  return change?.type === 'amount' ? { ...view, amount: String(change.amount) } : view;
}

/** A payout (GET, search) once a difference is planted on it; null when planted away. */
export function plantedPayout(p: MockPayout, change: PlantedChange | undefined): MockPayout | null {
  if (!change) return p;
  if (change.type === 'drop') return null;
  if (change.type === 'amount') return { ...p, receive_amount: String(change.amount) };
  if (change.status === 'SUCCESS') return { ...p, status: 'succeeded', payout_error: null };
  return p.status === 'failed' || p.status === 'reversed'
    ? p
    : {
        ...p,
        status: 'failed',
        payout_error: { error_code: 'internal-server-error', error_message: 'The payout failed' },
      };
}
