import { recordOfTransaction, transactionsPageOf, type WaveTransaction } from './transactions.js';

const tx = (over: Partial<WaveTransaction> = {}): WaveTransaction => ({
  timestamp: '2026-11-27T10:00:00Z',
  transaction_id: 'T_ABC',
  transaction_type: 'api_checkout',
  amount: '990',
  fee: '10',
  currency: 'XOF',
  is_reversal: false,
  client_reference: 'MM1',
  checkout_api_session_id: 'cos-1',
  ...over,
});
const page = (
  items: unknown[],
  pageInfo: Record<string, unknown> = { start_cursor: null, end_cursor: 'c1', has_next_page: false },
) => ({ page_info: pageInfo, date: '2026-11-27', items });

describe('Wave GET /v1/transactions -> operator records', () => {
  // transaction_type, is_reversal, amount, fee -> kind, outcome, amount (the customer's side)
  it.each([
    ['api_checkout', false, '990', '10', 'CASHIN', 'SUCCESS', 1000],
    ['api_checkout_refund', true, '-990', '-10', 'REFUND', 'SUCCESS', 1000],
    ['api_checkout', true, '-990', '-10', 'REFUND', 'SUCCESS', 1000],
    ['api_payout', false, '-505', '5', 'PAYOUT', 'SUCCESS', 500],
    ['api_payout_reversal', true, '505', '-5', 'PAYOUT', 'FAILED', 500],
    ['api_payout', true, '505', '-5', 'PAYOUT', 'FAILED', 500],
  ] as const)(
    '%s (reversal %s, amount %s, fee %s) -> %s %s of %s',
    (type, reversal, amount, fee, kind, outcome, gross) => {
      expect(recordOfTransaction(tx({ transaction_type: type, is_reversal: reversal, amount, fee }))).toMatchObject({
        kind,
        outcome,
        amount: gross,
        currency: 'XOF',
      });
    },
  );

  it('a checkout and a payout are keyed by client_reference and transaction_id; a refund by the session it gave back, with no reference of ours', () => {
    expect(recordOfTransaction(tx())).toEqual({
      kind: 'CASHIN',
      reference: 'MM1',
      operatorTxId: 'T_ABC',
      amount: 1000,
      currency: 'XOF',
      outcome: 'SUCCESS',
    });
    expect(
      recordOfTransaction(
        tx({ transaction_type: 'api_checkout_refund', transaction_id: 'T_RF', amount: '-990', fee: '-10' }),
      ),
    ).toEqual({
      kind: 'REFUND',
      reference: null,
      operatorTxId: 'cos-1',
      amount: 1000,
      currency: 'XOF',
      outcome: 'SUCCESS',
    });
    expect(
      recordOfTransaction(
        tx({
          transaction_type: 'api_payout',
          client_reference: 'CO1',
          checkout_api_session_id: null,
          amount: '-2525',
          fee: '25',
        }),
      ),
    ).toEqual({
      kind: 'PAYOUT',
      reference: 'CO1',
      operatorTxId: 'T_ABC',
      amount: 2500,
      currency: 'XOF',
      outcome: 'SUCCESS',
    });
    // without the session id a refund is keyed by its own transaction id
    expect(
      recordOfTransaction(
        tx({ transaction_type: 'api_checkout_refund', checkout_api_session_id: null, amount: '-990', fee: '-10' }),
      ),
    ).toMatchObject({ operatorTxId: 'T_ABC' });
  });

  it('an empty type with a checkout session id is a checkout; transactions not made through this service are left out', () => {
    expect(recordOfTransaction(tx({ transaction_type: '' }))).toMatchObject({ kind: 'CASHIN' });
    expect(recordOfTransaction(tx({ transaction_type: null, checkout_api_session_id: null }))).toBeNull();
    for (const type of [
      'merchant_payment',
      'merchant_payment_refund',
      'bulk_payment',
      'b2b_payment',
      'merchant_sweep',
    ]) {
      expect(recordOfTransaction(tx({ transaction_type: type }))).toBeNull();
    }
  });

  it('decimal amounts keep their cents', () => {
    expect(recordOfTransaction(tx({ currency: 'USD', amount: '9.90', fee: '0.10' }))).toMatchObject({
      amount: 10,
      currency: 'USD',
    });
  });

  it('reads the page: next is end_cursor only while has_next_page', () => {
    expect(transactionsPageOf(page([tx()]))).toEqual({ date: '2026-11-27', items: [tx()], next: null });
    expect(transactionsPageOf(page([tx()], { start_cursor: null, end_cursor: 'c1', has_next_page: true }))?.next).toBe(
      'c1',
    );
  });

  it.each([
    ['more pages and no cursor', page([], { start_cursor: null, end_cursor: null, has_next_page: true })],
    ['no page_info', { date: '2026-11-27', items: [] }],
    ['an amount that is not a number', page([{ ...tx(), amount: '1 000' }])],
    ['a number for an amount (Wave sends strings)', page([{ ...tx(), amount: 990 }])],
    ['no transaction_id', page([{ ...tx(), transaction_id: undefined }])],
    ['no fee', page([{ ...tx(), fee: undefined }])],
  ])('an answer outside the protocol is null: %s', (_what, data) => {
    expect(transactionsPageOf(data)).toBeNull();
  });
});
