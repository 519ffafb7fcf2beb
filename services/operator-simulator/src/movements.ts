import type { RecordOutcome } from '@mm/domain';
import type { DisbursementBook, DisbursementRecord } from './disbursement-book.js';
import type { StatementLine } from '@mm/fake-operator';
import type { Push, PushStore } from './push-store.js';
import type { RefundBook, RefundRecord } from './refund-book.js';
import type { WireState } from './wire.js';

/** What is behind a line of the simulator's books (its list's own fields). */
export type SimulatorSource =
  | { type: 'push'; push: Push }
  | { type: 'refund'; refund: RefundRecord }
  | { type: 'disbursement'; disbursement: DisbursementRecord };

const PUSH_OUTCOMES: Readonly<Record<WireState, RecordOutcome>> = {
  OK: 'SUCCESS',
  PENDING: 'PENDING',
  canceled: 'FAILED',
  KO: 'FAILED',
};

/** The operator's name of a movement in its books: its reference, or its own id of it once it gave one. */
export const pushKey = (p: Push) => ({ reference: p.partnerReference, operatorTxId: p.provider_tx_id });
export const refundKey = (r: RefundRecord) => ({
  reference: r.partnerReference,
  operatorTxId: 'refund_id' in r.answer.body ? r.answer.body.refund_id : null,
});
export const disbursementKey = (d: DisbursementRecord) => ({
  reference: d.partnerReference,
  operatorTxId: d.answer.state === 'OK' ? d.answer.disbursement_id : null,
});

/**
 * Every movement the sandbox operator registered, as statement lines at its creation time: cash-ins (a push
 * refused at once is a FAILED one), refunds (any recorded answer but OK moved nothing: FAILED) and disbursements.
 */
export function simulatorLines(
  store: PushStore,
  refunds: RefundBook,
  disbursements: DisbursementBook,
): StatementLine<SimulatorSource>[] {
  const pushes = store.list().map((push): StatementLine<SimulatorSource> => ({
    lineId: `CASHIN:${push.partnerReference}`,
    kind: 'CASHIN',
    ...pushKey(push),
    amount: push.amount,
    currency: push.currency,
    status: PUSH_OUTCOMES[push.state],
    occurredAtMs: push.createdAt.getTime(),
    source: { type: 'push', push },
  }));
  const refunded = refunds.list().map((refund): StatementLine<SimulatorSource> => {
    const key = refundKey(refund);
    return {
      lineId: `REFUND:${refund.partnerReference}`,
      kind: 'REFUND',
      ...key,
      amount: refund.amount,
      currency: refund.currency,
      status: key.operatorTxId ? 'SUCCESS' : 'FAILED',
      occurredAtMs: refund.createdAt.getTime(),
      source: { type: 'refund', refund },
    };
  });
  const paid = disbursements.list().map((disbursement): StatementLine<SimulatorSource> => ({
    lineId: `PAYOUT:${disbursement.partnerReference}`,
    kind: 'PAYOUT',
    ...disbursementKey(disbursement),
    amount: disbursement.amount,
    currency: disbursement.currency,
    status: disbursement.answer.state === 'OK' ? 'SUCCESS' : 'FAILED',
    occurredAtMs: disbursement.createdAt.getTime(),
    source: { type: 'disbursement', disbursement },
  }));
  return [...pushes, ...refunded, ...paid];
}
