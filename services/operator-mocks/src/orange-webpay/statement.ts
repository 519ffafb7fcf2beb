import type { RecordOutcome } from '@mm/domain';
import { plantedTxId, type PlantedChange, type StatementLine } from '@mm/fake-operator';
import type { WebPayment, WebpayStatus } from './payments.js';

const OUTCOMES: Readonly<Record<WebpayStatus, RecordOutcome>> = {
  SUCCESS: 'SUCCESS',
  FAILED: 'FAILED',
  EXPIRED: 'FAILED',
  INITIATED: 'PENDING',
  PENDING: 'PENDING',
};

/** Orange's web payments as statement lines, by order_id (our reference); WebPay has no refunds or payouts. */
export function webpayStatementLines(all: readonly WebPayment[]): StatementLine<WebPayment>[] {
  return all.map((p): StatementLine<WebPayment> => ({
    lineId: p.payToken,
    kind: 'CASHIN',
    reference: p.orderId,
    operatorTxId: p.status === 'SUCCESS' ? p.txnid : null,
    amount: p.amount,
    currency: p.currency,
    status: OUTCOMES[p.status],
    occurredAtMs: p.createdAtMs,
    source: p,
  }));
}

/**
 * The transactionstatus answer {status, order_id, txnid} once a difference is planted on the payment; null when
 * planted away (404, as for an order Orange does not have). It names no amount, so a planted amount shows in
 * the statement only: this status query cannot tell it.
 */
export function statusAnswer(p: WebPayment, change: PlantedChange | undefined): Record<string, unknown> | null {
  const answer = (status: WebpayStatus, txnid: string | null, message: string | null) => ({
    status,
    order_id: p.orderId,
    txnid,
    ...(status === 'FAILED' && message ? { message } : {}),
  });
  if (change?.type === 'drop') return null;
  if (change?.type !== 'status') return answer(p.status, p.txnid, p.message);
  if (change.status === 'SUCCESS') return answer('SUCCESS', p.txnid ?? plantedTxId(p.orderId), null);
  return answer('FAILED', p.txnid, p.status === 'FAILED' ? p.message : null);
}
