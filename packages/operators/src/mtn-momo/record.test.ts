import { recordFromMtnStatus } from './record.js';

const body = (over: Record<string, unknown> = {}) => ({
  financialTransactionId: '123456789',
  externalId: 'MM1',
  amount: '5000',
  currency: 'XOF',
  payer: { partyIdType: 'MSISDN', partyId: '2250500000001' },
  status: 'SUCCESSFUL',
  ...over,
});

describe('MTN status body -> operator record', () => {
  it.each([
    ['SUCCESSFUL', 'SUCCESS'],
    ['FAILED', 'FAILED'],
    ['PENDING', 'PENDING'],
    ['CREATED', 'PENDING'],
    ['ONGOING', 'PENDING'],
  ] as const)('%s -> %s', (status, outcome) => {
    expect(recordFromMtnStatus('CASHIN', body({ status }), 'MM1')).toMatchObject({ outcome });
  });

  it('carries the amount MTN holds (a string on the wire), its currency, externalId and financialTransactionId', () => {
    expect(recordFromMtnStatus('REFUND', body({ amount: '4999', currency: 'XAF', externalId: 'RF1' }), 'RF1')).toEqual({
      kind: 'REFUND',
      reference: 'RF1',
      operatorTxId: '123456789',
      amount: 4999,
      currency: 'XAF',
      outcome: 'SUCCESS',
    });
  });

  it('without externalId it is the movement asked for (found by the id derived from its reference); without financialTransactionId no operator id', () => {
    expect(
      recordFromMtnStatus(
        'PAYOUT',
        body({ externalId: undefined, financialTransactionId: undefined, status: 'PENDING' }),
        'CO1',
      ),
    ).toEqual({
      kind: 'PAYOUT',
      reference: 'CO1',
      operatorTxId: null,
      amount: 5000,
      currency: 'XOF',
      outcome: 'PENDING',
    });
  });

  it('an externalId MTN echoes is its word, kept even when it is not the reference asked for', () => {
    expect(recordFromMtnStatus('CASHIN', body({ externalId: 'MM2' }), 'MM1')).toMatchObject({ reference: 'MM2' });
  });

  it.each([
    ['an undocumented status', body({ status: 'REJECTED' })],
    ['no amount', body({ amount: undefined })],
    ['an amount that is not one', body({ amount: '5 000' })],
    ['no currency', body({ currency: undefined })],
    ['not an object', 'SUCCESSFUL'],
  ])('outside the protocol is null: %s', (_what, data) => {
    expect(recordFromMtnStatus('CASHIN', data, 'MM1')).toBeNull();
  });
});
