import type { TransactionStatus, TransactionType } from './transaction-status.js';

export type AccountKind =
  | 'MERCHANT_AVAILABLE'
  | 'MERCHANT_PENDING'
  | 'MERCHANT_REFUND_RESERVED'
  | 'MERCHANT_CASHOUT_RESERVED'
  | 'OPERATOR_RECEIVABLE'
  /** Per country, no merchant: money the operator collected that belongs to a customer, until it is paid back. */
  | 'CUSTOMER_SUSPENSE'
  /**
   * Per country, no merchant: the differences with the operator's records whose operator side was accepted
   * and whose owner is not settled yet (positive: the operator holds more than our books said).
   */
  | 'RECONCILIATION_SUSPENSE'
  /** Per country, no merchant: differences the company absorbed (written off with a reason). */
  | 'RECONCILIATION_WRITE_OFF';

export interface PostingLine {
  account: AccountKind;
  amount: number;
}

export interface Posting {
  name: string;
  lines: PostingLine[];
}

/**
 * Journal lines a cash-in status change writes (decisions 6). Merchant accounts hold what the
 * service owes the merchant; OPERATOR_RECEIVABLE is the other side. Every posting sums to zero.
 */
export function cashinPosting(from: TransactionStatus | null, to: TransactionStatus, amount: number): Posting | null {
  if (from === null && to === 'CREATED') {
    return {
      name: 'CASHIN_PENDING',
      lines: [
        { account: 'MERCHANT_PENDING', amount },
        { account: 'OPERATOR_RECEIVABLE', amount: -amount },
      ],
    };
  }
  const wasPending = from === 'CREATED' || from === 'INITIATED' || from === 'PENDING';
  if (wasPending && to === 'SUCCESS') {
    return {
      name: 'CASHIN_CAPTURED',
      lines: [
        { account: 'MERCHANT_PENDING', amount: -amount },
        { account: 'MERCHANT_AVAILABLE', amount },
      ],
    };
  }
  if (wasPending && (to === 'FAILED' || to === 'EXPIRED')) {
    return {
      name: 'CASHIN_RELEASED',
      lines: [
        { account: 'MERCHANT_PENDING', amount: -amount },
        { account: 'OPERATOR_RECEIVABLE', amount },
      ],
    };
  }
  if (from === 'EXPIRED' && to === 'SUCCESS') {
    return {
      name: 'CASHIN_LATE_CAPTURED',
      lines: [
        { account: 'OPERATOR_RECEIVABLE', amount: -amount },
        { account: 'MERCHANT_AVAILABLE', amount },
      ],
    };
  }
  return null;
}

/**
 * Journal lines a cash-out status change writes (decisions 6 and 7). Its amount is reserved from the
 * available balance when it is accepted (waiting for approval or not), paid out to the operator on
 * SUCCESS, and given back on FAILED (rejected by an approver, or refused by the operator).
 */
export function cashoutPosting(from: TransactionStatus | null, to: TransactionStatus, amount: number): Posting | null {
  if (from === null && (to === 'CREATED' || to === 'AWAITING_APPROVAL')) {
    return {
      name: 'CASHOUT_RESERVED',
      lines: [
        { account: 'MERCHANT_AVAILABLE', amount: -amount },
        { account: 'MERCHANT_CASHOUT_RESERVED', amount },
      ],
    };
  }
  if (from === 'INITIATED' && to === 'SUCCESS') {
    return {
      name: 'CASHOUT_PAID',
      lines: [
        { account: 'MERCHANT_CASHOUT_RESERVED', amount: -amount },
        { account: 'OPERATOR_RECEIVABLE', amount },
      ],
    };
  }
  if (from !== null && to === 'FAILED') {
    return {
      name: 'CASHOUT_RELEASED',
      lines: [
        { account: 'MERCHANT_CASHOUT_RESERVED', amount: -amount },
        { account: 'MERCHANT_AVAILABLE', amount },
      ],
    };
  }
  return null;
}

export function transactionPosting(
  type: TransactionType,
  from: TransactionStatus | null,
  to: TransactionStatus,
  amount: number,
): Posting | null {
  return type === 'CASHOUT' ? cashoutPosting(from, to, amount) : cashinPosting(from, to, amount);
}

export type RefundStep = 'ACCEPTED' | 'SUCCEEDED' | 'FAILED';

/**
 * A refund reserves its amount from the available balance when accepted (decisions 5), pays it out
 * to the operator when it succeeds, and gives it back when it fails.
 */
export function refundPosting(step: RefundStep, amount: number): Posting {
  switch (step) {
    case 'ACCEPTED':
      return {
        name: 'REFUND_RESERVED',
        lines: [
          { account: 'MERCHANT_AVAILABLE', amount: -amount },
          { account: 'MERCHANT_REFUND_RESERVED', amount },
        ],
      };
    case 'SUCCEEDED':
      return {
        name: 'REFUND_PAID',
        lines: [
          { account: 'MERCHANT_REFUND_RESERVED', amount: -amount },
          { account: 'OPERATOR_RECEIVABLE', amount },
        ],
      };
    case 'FAILED':
      return {
        name: 'REFUND_RELEASED',
        lines: [
          { account: 'MERCHANT_REFUND_RESERVED', amount: -amount },
          { account: 'MERCHANT_AVAILABLE', amount },
        ],
      };
  }
}

export type LateSuccessStep = 'HELD' | 'RETURNED';

/**
 * A late success for a FAILED cash-in (decisions 13). The operator collected the money (HELD: it owes us
 * what it took, and we owe it to the customer, in suspense); the operator's refund pays it back
 * (RETURNED: suspense back to zero). No merchant account is touched by either. A return that fails
 * writes nothing: the money stays in suspense until a person resolves it.
 */
export function lateSuccessPosting(step: LateSuccessStep, amount: number): Posting {
  switch (step) {
    case 'HELD':
      return {
        name: 'LATE_SUCCESS_HELD',
        lines: [
          { account: 'OPERATOR_RECEIVABLE', amount: -amount },
          { account: 'CUSTOMER_SUSPENSE', amount },
        ],
      };
    case 'RETURNED':
      return {
        name: 'LATE_SUCCESS_RETURNED',
        lines: [
          { account: 'CUSTOMER_SUSPENSE', amount: -amount },
          { account: 'OPERATOR_RECEIVABLE', amount },
        ],
      };
  }
}

export type ReconciliationStep = 'ACCEPTED' | 'WRITTEN_OFF';

/**
 * A reconciliation case resolved by a person (docs/reconciliation.md). ACCEPTED: the operator's side is
 * taken as true, so what it holds for us (OPERATOR_RECEIVABLE) moves by the difference, against the
 * country's reconciliation suspense, until finance settles who bears it. WRITTEN_OFF: after ACCEPTED, the
 * company absorbs it: suspense to write-off. `difference` is how much more the operator holds than our books
 * said (negative: less), as holdingDifference computes it. No merchant account is touched: what the merchant
 * was told stays true; recovering money from a merchant is a decision outside the ledger's postings.
 */
export function reconciliationPosting(step: ReconciliationStep, difference: number): Posting {
  switch (step) {
    case 'ACCEPTED':
      return {
        name: 'RECONCILIATION_ACCEPTED',
        lines: [
          { account: 'OPERATOR_RECEIVABLE', amount: -difference },
          { account: 'RECONCILIATION_SUSPENSE', amount: difference },
        ],
      };
    case 'WRITTEN_OFF':
      return {
        name: 'RECONCILIATION_WRITTEN_OFF',
        lines: [
          { account: 'RECONCILIATION_SUSPENSE', amount: -difference },
          { account: 'RECONCILIATION_WRITE_OFF', amount: difference },
        ],
      };
  }
}
