import { recordsPageFromResponse } from './records.js';

const item = (over: Record<string, unknown> = {}) => ({
  kind: 'CASHIN',
  partner_reference: 'MM1',
  id: 'MP1',
  amount: 1500,
  currency: 'XOF',
  status: 'OK',
  created_at: '2026-11-27T10:00:00.000Z',
  ...over,
});

describe("the simulator's GET /v1/transactions -> operator records", () => {
  it.each([
    ['CASHIN', 'OK', 'SUCCESS'],
    ['CASHIN', 'PENDING', 'PENDING'],
    ['CASHIN', 'canceled', 'FAILED'],
    ['CASHIN', 'KO', 'FAILED'],
    ['REFUND', 'OK', 'SUCCESS'],
    ['REFUND', 'FAILED', 'FAILED'],
    ['PAYOUT', 'OK', 'SUCCESS'],
    ['PAYOUT', 'FAILED', 'FAILED'],
  ] as const)('%s %s -> %s', (kind, status, outcome) => {
    expect(recordsPageFromResponse(200, { items: [item({ kind, status })], next: null })?.records[0]?.outcome).toBe(
      outcome,
    );
  });

  it('keeps the reference, the operator id (null before one exists), the amount and the cursor', () => {
    expect(
      recordsPageFromResponse(200, {
        date: '2026-11-27',
        items: [item(), item({ partner_reference: 'MM2', id: null, status: 'PENDING' })],
        next: 'abc',
      }),
    ).toEqual({
      records: [
        { kind: 'CASHIN', reference: 'MM1', operatorTxId: 'MP1', amount: 1500, currency: 'XOF', outcome: 'SUCCESS' },
        { kind: 'CASHIN', reference: 'MM2', operatorTxId: null, amount: 1500, currency: 'XOF', outcome: 'PENDING' },
      ],
      next: 'abc',
    });
  });

  it.each([
    ['another HTTP status', 201, { items: [], next: null }],
    ['no next', 200, { items: [] }],
    ['an unknown state', 200, { items: [item({ status: 'DONE' })], next: null }],
    ['an unknown kind', 200, { items: [item({ kind: 'FEE' })], next: null }],
    ['an amount as a string', 200, { items: [item({ amount: '1500' })], next: null }],
  ])('outside the protocol is null: %s', (_what, status, data) => {
    expect(recordsPageFromResponse(status, data)).toBeNull();
  });
});
