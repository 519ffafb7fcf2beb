import type { TransactionStatus } from './transaction-status.js';

export type AccountKind = 'MERCHANT_AVAILABLE' | 'MERCHANT_PENDING' | 'MERCHANT_REFUND_RESERVED' | 'OPERATOR_RECEIVABLE';

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
    return { name: 'CASHIN_PENDING', lines: [{ account: 'MERCHANT_PENDING', amount }, { account: 'OPERATOR_RECEIVABLE', amount: -amount }] };
  }
  const wasPending = from === 'CREATED' || from === 'INITIATED' || from === 'PENDING';
  if (wasPending && to === 'SUCCESS') {
    return { name: 'CASHIN_CAPTURED', lines: [{ account: 'MERCHANT_PENDING', amount: -amount }, { account: 'MERCHANT_AVAILABLE', amount }] };
  }
  if (wasPending && (to === 'FAILED' || to === 'EXPIRED')) {
    return { name: 'CASHIN_RELEASED', lines: [{ account: 'MERCHANT_PENDING', amount: -amount }, { account: 'OPERATOR_RECEIVABLE', amount }] };
  }
  if (from === 'EXPIRED' && to === 'SUCCESS') {
    return { name: 'CASHIN_LATE_CAPTURED', lines: [{ account: 'OPERATOR_RECEIVABLE', amount: -amount }, { account: 'MERCHANT_AVAILABLE', amount }] };
  }
  return null;
}
