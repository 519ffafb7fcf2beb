import { CONFIRMED, DECLINED, disbursementFailureFor, refundsRejectedFor, scenarioFor } from './scenarios.js';

describe('scenarioFor (the outcome of a test number by its last two digits)', () => {
  it.each([
    [
      '+2250700000001',
      { kind: 'scripted', after: 'soon', result: { state: 'OK', txn_status: '200', failure_reason: null } },
    ],
    [
      '+2250700000002',
      { kind: 'scripted', after: 'soon', result: { state: 'canceled', txn_status: '54321', failure_reason: '60019' } },
    ],
    [
      '+2250700000003',
      { kind: 'scripted', after: 'soon', result: { state: 'canceled', txn_status: '54321', failure_reason: '00017' } },
    ],
    [
      '+2250700000004',
      { kind: 'scripted', after: 'soon', result: { state: 'canceled', txn_status: '54321', failure_reason: '100004' } },
    ],
    [
      '+2250700000005',
      { kind: 'scripted', after: 'soon', result: { state: 'canceled', txn_status: null, failure_reason: null } },
    ],
    ['+2250700000006', { kind: 'never' }],
    ['+2250700000007', { kind: 'rejected', result: { state: 'KO', txn_status: '40001', failure_reason: null } }],
    ['+2250700000008', { kind: 'hang' }],
    [
      '+2250700000009',
      { kind: 'scripted', after: 'late', result: { state: 'OK', txn_status: '200', failure_reason: null } },
    ],
    [
      '+2250700000010',
      { kind: 'scripted', after: 'soon', result: { state: 'OK', txn_status: '200', failure_reason: null } },
    ],
    ['+2250700000013', { kind: 'late-register' }],
  ])('%s', (msisdn, expected) => {
    expect(scenarioFor(msisdn)).toEqual(expected);
  });

  it.each(['+2250700000000', '+2250700000011', '+2250700000100', '+221770000019', '+2250700000042'])(
    '%s (any other ending) waits for a person on the phone',
    (msisdn) => {
      expect(scenarioFor(msisdn)).toEqual({ kind: 'manual' });
    },
  );

  it('reads only the last two digits, whatever the country or format', () => {
    expect(scenarioFor('221770000002')).toEqual(scenarioFor('+2250700000002'));
    expect(scenarioFor('+237650000107')).toEqual(scenarioFor('+2250700000007'));
  });

  it('a person confirming is OK / 200, declining is canceled with no txn_status', () => {
    expect(CONFIRMED).toEqual({ state: 'OK', txn_status: '200', failure_reason: null });
    expect(DECLINED).toEqual({ state: 'canceled', txn_status: null, failure_reason: null });
  });

  it('refunds are rejected only for cash-ins from a number ending 10', () => {
    expect(refundsRejectedFor('+2250700000010')).toBe(true);
    expect(refundsRejectedFor('221770000010')).toBe(true);
    expect(['+2250700000001', '+2250700000100', '+2250700000011'].map(refundsRejectedFor)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('disbursements fail only to a beneficiary number ending 11 (not found) or 12 (limit exceeded)', () => {
    expect(disbursementFailureFor('+2250700000011')).toBe('BENEFICIARY_NOT_FOUND');
    expect(disbursementFailureFor('221770000012')).toBe('BENEFICIARY_LIMIT_EXCEEDED');
    expect(
      ['+2250700000001', '+2250700000010', '+2250700000110', '+2250700000121', '+2250700000042'].map(
        disbursementFailureFor,
      ),
    ).toEqual([null, null, null, null, null]);
    // Cash-ins from them are not scripted: a person answers on the phone, as for any other number.
    expect([scenarioFor('+2250700000011'), scenarioFor('+2250700000012')]).toEqual([
      { kind: 'manual' },
      { kind: 'manual' },
    ]);
  });
});
