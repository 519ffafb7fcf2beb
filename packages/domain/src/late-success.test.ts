import { isConfirmedPayment, returnsLateSuccess } from './late-success.js';
import { lateSuccessPosting } from './ledger-postings.js';
import { TRANSACTION_STATUSES } from './transaction-status.js';

const OK = { providerState: 'OK', providerTxnStatus: '200' } as const;

describe('late success for a FAILED cash-in (decisions 13)', () => {
  it('returns the money of a confirmed payment of a FAILED cash-in, and of nothing else', () => {
    for (const status of TRANSACTION_STATUSES) {
      expect({ status, returns: returnsLateSuccess({ type: 'CASHIN', status }, OK) }).toEqual({
        status,
        returns: status === 'FAILED',
      });
      expect(returnsLateSuccess({ type: 'CASHOUT', status }, OK)).toBe(false);
    }
  });

  it('an EXPIRED cash-in confirmed late is not returned: it credits the merchant (decisions 4)', () => {
    expect(returnsLateSuccess({ type: 'CASHIN', status: 'EXPIRED' }, OK)).toBe(false);
  });

  it('only OK with its 200 is a payment: an OK without it, another code, a cancel or a KO return nothing', () => {
    expect(isConfirmedPayment(OK)).toBe(true);
    for (const r of [
      { providerState: 'OK', providerTxnStatus: null },
      { providerState: 'OK', providerTxnStatus: '201' },
      { providerState: 'canceled', providerTxnStatus: '54321' },
      { providerState: 'KO', providerTxnStatus: '40001' },
      { providerState: 'PENDING', providerTxnStatus: null },
    ] as const) {
      expect(isConfirmedPayment(r)).toBe(false);
      expect(returnsLateSuccess({ type: 'CASHIN', status: 'FAILED' }, r)).toBe(false);
    }
  });

  it('holds the money in suspense and returns it, touching no merchant account; suspense nets to zero', () => {
    const held = lateSuccessPosting('HELD', 5000);
    const returned = lateSuccessPosting('RETURNED', 5000);
    for (const p of [held, returned]) {
      expect(p.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
      expect(p.lines.every((l) => !l.account.startsWith('MERCHANT_'))).toBe(true);
    }
    expect(held.lines).toContainEqual({ account: 'CUSTOMER_SUSPENSE', amount: 5000 });
    const suspense = [...held.lines, ...returned.lines]
      .filter((l) => l.account === 'CUSTOMER_SUSPENSE')
      .reduce((s, l) => s + l.amount, 0);
    expect(suspense).toBe(0);
  });
});
