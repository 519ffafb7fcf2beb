import type { RecordOutcome } from '@mm/domain';
import { plantedTxId, type PlantedChange, type StatementLine } from '@mm/fake-operator';
import type { MpPayment, MpStatus } from './payments.js';

const OUTCOMES: Readonly<Record<MpStatus, RecordOutcome>> = {
  SUCCESSFULL: 'SUCCESS',
  FAILED: 'FAILED',
  EXPIRED: 'FAILED',
  CANCELLED: 'FAILED',
  INITIATED: 'PENDING',
  PENDING: 'PENDING',
};

/**
 * Orange's pays as statement lines, by orderId (our reference): a pay token never paid with has none and moved
 * nothing, so it is no line. The mp API names no currency: Orange Cameroon's, XAF. No refunds or payouts.
 */
export function mpStatementLines(all: readonly MpPayment[]): StatementLine<MpPayment>[] {
  return all
    .filter((p) => p.orderId !== null)
    .map((p): StatementLine<MpPayment> => ({
      lineId: p.payToken,
      kind: 'CASHIN',
      reference: p.orderId,
      operatorTxId: p.status === 'SUCCESSFULL' ? p.txnid : null,
      amount: Number(p.amount),
      currency: 'XAF',
      status: OUTCOMES[p.status],
      occurredAtMs: Number(p.createtime) * 1000,
      source: p,
    }));
}

/** The paymentstatus `data` once a difference is planted on the pay (by orderId or txnid); null when planted away (404). */
export function plantedData(p: MpPayment, change: PlantedChange | undefined): MpPayment | null {
  if (!change) return p;
  if (change.type === 'drop') return null;
  if (change.type === 'amount') return { ...p, amount: String(change.amount) };
  if (change.status === 'SUCCESS') {
    return {
      ...p,
      status: 'SUCCESSFULL',
      txnid: p.txnid ?? plantedTxId(p.orderId ?? p.payToken),
      confirmtxnstatus: '200',
      confirmtxnmessage: 'Paiement effectue avec succes',
    };
  }
  // A flipped success fails without a cause, as Orange's refusal of a repeated pay does.
  return p.status === 'FAILED'
    ? p
    : { ...p, status: 'FAILED', txnid: null, confirmtxnstatus: null, confirmtxnmessage: null };
}
