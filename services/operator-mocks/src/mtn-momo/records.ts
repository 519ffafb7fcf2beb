import { groupBy, type MockRecords, type MockTransferRecord } from '../records.js';
import type { MtnRecord } from './store.js';

const externalIdOf = (r: MtnRecord) => (typeof r.body.externalId === 'string' ? r.body.externalId : null);
/** The paid one's status when one was paid, else the latest one's. */
const stateOf = (group: MtnRecord[]) => (group.find((r) => r.status === 'SUCCESSFUL') ?? group.at(-1)!).status;

/**
 * MTN's own record per externalId (our reference): requests to pay created (one per X-Reference-Id: a 409
 * creates nothing), SUCCESSFUL ones taken; refunds and transfers paid when SUCCESSFUL.
 */
export function mtnRecords(all: readonly MtnRecord[]): MockRecords {
  const ofKind = (kind: MtnRecord['kind']) => all.filter((r) => r.kind === kind);
  const requests = ofKind('requesttopay');
  const requestById = new Map(requests.map((r) => [r.referenceId, r]));
  const refunds = ofKind('refund');
  const paidBack = (referenceIds: Set<string>) =>
    refunds.filter((r) => r.status === 'SUCCESSFUL' && referenceIds.has(r.body.referenceIdToRefund as string)).length;
  const transfers = (group: MtnRecord[], reference: string, paymentReference: string | null): MockTransferRecord => ({
    reference,
    paymentReference,
    created: group.length,
    state: stateOf(group),
    paid: group.filter((r) => r.status === 'SUCCESSFUL').length,
  });
  return {
    payments: [...groupBy(requests, externalIdOf)].map(([reference, group]) => ({
      reference,
      created: group.length,
      state: stateOf(group),
      taken: group.some((r) => r.status === 'SUCCESSFUL'),
      decided: group.every((r) => r.status === 'SUCCESSFUL' || r.status === 'FAILED'),
      refundsPaid: paidBack(new Set(group.map((r) => r.referenceId))),
    })),
    refunds: [...groupBy(refunds, externalIdOf)].map(([reference, group]) => {
      const original = requestById.get(group[0]!.body.referenceIdToRefund as string);
      return transfers(group, reference, original ? externalIdOf(original) : null);
    }),
    payouts: [...groupBy(ofKind('transfer'), externalIdOf)].map(([reference, group]) =>
      transfers(group, reference, null),
    ),
  };
}
