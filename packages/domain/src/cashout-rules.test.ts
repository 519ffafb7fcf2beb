import { cashoutApprovalReason, type CashoutApprovalRule } from './cashout-rules.js';

const rule: CashoutApprovalRule = {
  threshold: 1_000_000,
  merchantDailyTotal: 3_000_000,
  beneficiaryDailyTotal: 1_000_000,
};
const none = { merchant: 0, beneficiary: 0 };

describe('when a cash-out waits for an approver', () => {
  it.each([
    ['under every limit', 999_999, none, null],
    ['at the threshold on its own', 1_000_000, none, 'AMOUNT_AT_THRESHOLD'],
    ['the merchant total reaching its limit exactly', 500_000, { merchant: 2_500_000, beneficiary: 0 }, null],
    [
      'the merchant total going past its limit',
      500_001,
      { merchant: 2_500_000, beneficiary: 0 },
      'MERCHANT_DAILY_TOTAL',
    ],
    ['the beneficiary total reaching its limit exactly', 400_000, { merchant: 600_000, beneficiary: 600_000 }, null],
    [
      'the beneficiary total going past its limit',
      400_001,
      { merchant: 600_000, beneficiary: 600_000 },
      'BENEFICIARY_DAILY_TOTAL',
    ],
    [
      'the amount first, then the merchant total, then the beneficiary',
      1_000_000,
      { merchant: 9e6, beneficiary: 9e6 },
      'AMOUNT_AT_THRESHOLD',
    ],
  ] as const)('%s', (_what, amount, totals, reason) => {
    expect(cashoutApprovalReason(amount, rule, totals)).toBe(reason);
  });
});
