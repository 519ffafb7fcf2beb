import { failureCodeForCause } from './failure-codes.js';
import {
  needsStatusConfirmation,
  outcomeOfOperatorResult,
  type OperatorResult,
  type ProviderState,
} from './operator-result.js';

const result = (
  providerState: ProviderState,
  providerTxnStatus: string | null,
  failureReason: string | null = null,
): OperatorResult => ({
  providerState,
  providerTxnStatus,
  failureReason,
  providerTxId: providerState === 'OK' ? 'MP123' : null,
});

describe('operator result -> outcome (decisions 4)', () => {
  it('OK / 200 is SUCCESS, with no failure code or reason', () => {
    expect(outcomeOfOperatorResult(result('OK', '200'))).toEqual({
      to: 'SUCCESS',
      failureCode: null,
      failureReason: null,
    });
  });

  it('OK with a txn status other than 200 is not credited', () => {
    expect(outcomeOfOperatorResult(result('OK', '500'))?.to).toBe('FAILED');
  });

  it('OK without a txn status is no success: it decides nothing and asks for a status query', () => {
    expect(outcomeOfOperatorResult(result('OK', null))).toBeNull();
    expect(needsStatusConfirmation(result('OK', null))).toBe(true);
    expect(needsStatusConfirmation(result('OK', '200'))).toBe(false);
    expect(needsStatusConfirmation(result('PENDING', null))).toBe(false);
  });

  it('PENDING decides nothing yet (null)', () => {
    expect(outcomeOfOperatorResult(result('PENDING', null))).toBeNull();
  });

  it('canceled / null is the customer not validating the push', () => {
    expect(outcomeOfOperatorResult(result('canceled', null))).toEqual({
      to: 'FAILED',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
      failureReason: null,
    });
  });

  it.each([
    ['60019', 'INSUFFICIENT_BALANCE'],
    ['00017', 'INVALID_SECRET_CODE'],
    ['100004', 'THRESHOLD_REACHED'],
    ['100050', 'THRESHOLD_REACHED'],
    ['100090', 'THRESHOLD_REACHED'],
    ['100003', 'UNKNOWN'],
    ['100091', 'UNKNOWN'],
    ['99999', 'UNKNOWN'],
  ])('canceled / 54321 with cause %s is FAILED %s, failure_reason the cause as given', (cause, code) => {
    expect(outcomeOfOperatorResult(result('canceled', '54321', cause))).toEqual({
      to: 'FAILED',
      failureCode: code,
      failureReason: cause,
    });
  });

  it('canceled / 54321 without a cause is FAILED UNKNOWN with a null reason', () => {
    expect(outcomeOfOperatorResult(result('canceled', '54321', null))).toEqual({
      to: 'FAILED',
      failureCode: 'UNKNOWN',
      failureReason: null,
    });
  });

  it('KO is OPERATOR_REJECTED, whatever txn status it carries', () => {
    expect(outcomeOfOperatorResult(result('KO', null))).toEqual({
      to: 'FAILED',
      failureCode: 'OPERATOR_REJECTED',
      failureReason: null,
    });
    expect(outcomeOfOperatorResult(result('KO', '40001'))).toEqual({
      to: 'FAILED',
      failureCode: 'OPERATOR_REJECTED',
      failureReason: null,
    });
  });

  it('keeps the leading zero of a cause: "00017" is not "17"', () => {
    expect(failureCodeForCause('00017')).toBe('INVALID_SECRET_CODE');
    expect(failureCodeForCause('17')).toBe('UNKNOWN');
    expect(failureCodeForCause(null)).toBe('UNKNOWN');
    expect(failureCodeForCause('1e5')).toBe('UNKNOWN');
  });
});
