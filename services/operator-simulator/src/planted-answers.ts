import { plantedTxId, type PlantedChange } from '@mm/fake-operator';
import type { DisbursementRecord } from './disbursement-book.js';
import type { Push } from './push-store.js';
import type { RefundRecord } from './refund-book.js';
import type { WireResult } from './wire.js';

/**
 * The partner API's status reads once a difference is planted in the sandbox operator's books (@mm/fake-operator
 * statement.ts): null when planted away (404 not_found). A planted failure reads KO (a cash-in) or FAILED with
 * reason PLANTED_FAILURE; a planted success OK with an id. The status bodies name no amount: a planted amount
 * shows in the list and the statement only. Nothing the operator does changes (a refund is still decided on the
 * cash-in's real state).
 */
export function plantedPayment(
  push: Push,
  change: PlantedChange | undefined,
): (WireResult & { partner_reference: string; session_id: string | null }) | null {
  const body = {
    partner_reference: push.partnerReference,
    session_id: push.sessionId,
    state: push.state,
    txn_status: push.txn_status,
    provider_tx_id: push.provider_tx_id,
    failure_reason: push.failure_reason,
  };
  if (change?.type === 'drop') return null;
  if (change?.type !== 'status') return body;
  if (change.status === 'SUCCESS')
    return {
      ...body,
      state: 'OK',
      txn_status: '200',
      provider_tx_id: push.provider_tx_id ?? plantedTxId(push.partnerReference),
      failure_reason: null,
    };
  return push.state === 'canceled' || push.state === 'KO'
    ? body
    : { ...body, state: 'KO', txn_status: null, provider_tx_id: null, failure_reason: 'PLANTED_FAILURE' };
}

export function plantedRefund(
  record: RefundRecord,
  change: PlantedChange | undefined,
): RefundRecord['answer'] | { status: 200; body: { state: 'FAILED'; reason: string } } | null {
  if (change?.type === 'drop') return null;
  if (change?.type !== 'status') return record.answer;
  if (change.status === 'FAILED') return { status: 200, body: { state: 'FAILED', reason: 'PLANTED_FAILURE' } };
  return {
    status: 200,
    body: {
      state: 'OK',
      refund_id:
        'refund_id' in record.answer.body ? record.answer.body.refund_id : plantedTxId(record.partnerReference),
    },
  };
}

export function plantedDisbursement(
  record: DisbursementRecord,
  change: PlantedChange | undefined,
): DisbursementRecord['answer'] | { state: 'FAILED'; reason: string } | null {
  if (change?.type === 'drop') return null;
  if (change?.type !== 'status') return record.answer;
  if (change.status === 'FAILED') return { state: 'FAILED', reason: 'PLANTED_FAILURE' };
  return {
    state: 'OK',
    disbursement_id:
      record.answer.state === 'OK' ? record.answer.disbursement_id : plantedTxId(record.partnerReference),
  };
}
