import express from 'express';

/**
 * What an operator's mock really did for one of our payments, in a form every mock shares so that a test
 * in another process (the chaos suite) can hold our rows against it: the operator's own record, not ours.
 */
export interface MockPaymentRecord {
  /** Our reference as the operator received it (MTN: externalId; Orange: orderId; Wave: client_reference). */
  reference: string;
  /** How many payments the operator really created for it (MTN: requests to pay; Orange: pays taken; Wave: sessions). */
  created: number;
  /** Its state in the operator's own terms (the paid one's when one was paid, else the latest one's). */
  state: string;
  /** Whether the operator took the money (a settled success). */
  taken: boolean;
  /** Whether the operator has decided it for good (nothing will change it any more, but a refund). */
  decided: boolean;
  /** How many times money went back to the customer for it (refunds paid, whatever their reference). */
  refundsPaid: number;
}

/** A refund or payout the operator holds under our reference (MTN's refunds and transfers, Wave's payouts). */
export interface MockTransferRecord {
  reference: string;
  /** For a refund, our reference of the payment it gives back (null when unknown to the operator). */
  paymentReference: string | null;
  created: number;
  state: string;
  /** How many of them were really paid out (a correct client never makes it more than 1). */
  paid: number;
}

export interface MockRecords {
  payments: MockPaymentRecord[];
  refunds: MockTransferRecord[];
  payouts: MockTransferRecord[];
}

/** Groups items by a key, keeping their order; items without a key are left out. */
export function groupBy<T>(items: Iterable<T>, key: (item: T) => string | null | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === null || k === undefined || k === '') continue;
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

/** GET /records under the mock's /_mock control routes. */
export function recordsRoute(records: () => MockRecords): express.Router {
  const router = express.Router();
  router.get('/records', (_req, res) => {
    res.json(records());
  });
  return router;
}
