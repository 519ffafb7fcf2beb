import type { RecordKind, RecordOutcome } from '@mm/domain';
import { plantedTxId, type PlantedChange, type StatementLine } from '@mm/fake-operator';
import type { MtnKind, MtnRecord, MtnStatus } from './store.js';

const KINDS: Readonly<Record<MtnKind, RecordKind>> = { requesttopay: 'CASHIN', refund: 'REFUND', transfer: 'PAYOUT' };
const OUTCOMES: Readonly<Record<MtnStatus, RecordOutcome>> = {
  SUCCESSFUL: 'SUCCESS',
  FAILED: 'FAILED',
  PENDING: 'PENDING',
  CREATED: 'PENDING',
};

const externalIdOf = (r: MtnRecord) =>
  typeof r.body.externalId === 'string' && r.body.externalId !== '' ? r.body.externalId : null;

/** MTN's requests to pay, refunds and transfers as statement lines: our reference is the externalId it echoes. */
export function mtnStatementLines(all: readonly MtnRecord[]): StatementLine<MtnRecord>[] {
  return all.map((r): StatementLine<MtnRecord> => ({
    lineId: r.referenceId,
    kind: KINDS[r.kind],
    reference: externalIdOf(r),
    operatorTxId: r.financialTransactionId ?? null,
    amount: Number(r.body.amount),
    currency: String(r.body.currency),
    status: OUTCOMES[r.status],
    occurredAtMs: r.createdAtMs,
    source: r,
  }));
}

/**
 * A record as MTN's status query tells it once a difference is planted on it (by its externalId or its
 * financialTransactionId); null when planted away (the query answers 404 RESOURCE_NOT_FOUND). A flipped failure
 * carries MTN's generic reason, INTERNAL_PROCESSING_ERROR, unless it had one; a flipped success an id.
 */
export function plantedRecord(record: MtnRecord, change: PlantedChange | undefined): MtnRecord | null {
  if (!change) return record;
  switch (change.type) {
    case 'drop':
      return null;
    case 'amount':
      return { ...record, body: { ...record.body, amount: String(change.amount) } };
    case 'status': {
      if (change.status === 'FAILED') {
        const { financialTransactionId: _gone, ...failed } = record;
        return {
          ...failed,
          status: 'FAILED',
          reason: record.status === 'FAILED' && record.reason ? record.reason : 'INTERNAL_PROCESSING_ERROR',
        };
      }
      const { reason: _none, ...succeeded } = record;
      return {
        ...succeeded,
        status: 'SUCCESSFUL',
        financialTransactionId:
          record.financialTransactionId ?? plantedTxId(externalIdOf(record) ?? record.referenceId),
      };
    }
  }
}
