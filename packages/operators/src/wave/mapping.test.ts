import { outcomeOfOperatorResult } from '@mm/domain';
import {
  disbursementResultOf,
  eventOf,
  pickSession,
  resultFromSession,
  sessionOf,
  toCheckoutBody,
  toPayoutBody,
  type WaveSession,
} from './mapping.js';
import { parseWaveSignature } from './webhook.js';

const session = (over: Partial<WaveSession> = {}): WaveSession => ({
  id: 'cos-1',
  amount: '1000',
  currency: 'XOF',
  checkout_status: 'open',
  payment_status: 'processing',
  transaction_id: null,
  client_reference: 'ref-1',
  last_payment_error: null,
  wave_launch_url: 'https://pay.wave.com/c/cos-1',
  ...over,
});
const failed = (code: string): Partial<WaveSession> => ({ last_payment_error: { code, message: `msg ${code}` } });

describe('Wave checkout session -> OperatorResult, one row each', () => {
  // checkout_status, payment_status, last_payment_error.code -> providerState, providerTxnStatus, failureCode
  it.each([
    ['open', 'processing', null, 'PENDING', 'open', null],
    ['complete', 'processing', null, 'PENDING', 'complete', null],
    ['expired', 'processing', null, 'canceled', 'expired', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['expired', 'cancelled', null, 'canceled', 'cancelled', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['complete', 'cancelled', null, 'canceled', 'cancelled', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['open', 'processing', 'insufficient-funds', 'canceled', 'insufficient-funds', 'INSUFFICIENT_BALANCE'],
    ['open', 'processing', 'payer-mobile-mismatch', 'KO', 'payer-mobile-mismatch', 'OPERATOR_REJECTED'],
    ['open', 'processing', 'blocked-account', 'KO', 'blocked-account', 'OPERATOR_REJECTED'],
    [
      'open',
      'processing',
      'cross-border-payment-not-allowed',
      'KO',
      'cross-border-payment-not-allowed',
      'OPERATOR_REJECTED',
    ],
    ['open', 'processing', 'customer-age-restricted', 'KO', 'customer-age-restricted', 'OPERATOR_REJECTED'],
    ['open', 'processing', 'kyb-limits-exceeded', 'KO', 'kyb-limits-exceeded', 'THRESHOLD_REACHED'],
    ['open', 'processing', 'payment-failure', 'KO', 'payment-failure', 'UNKNOWN'],
    ['open', 'processing', 'some-new-code', 'KO', 'some-new-code', 'UNKNOWN'],
    ['expired', 'cancelled', 'insufficient-funds', 'canceled', 'insufficient-funds', 'INSUFFICIENT_BALANCE'],
  ] as const)('%s + %s + %s -> %s / %s / %s', (checkout, payment, code, state, txnStatus, failureCode) => {
    const result = resultFromSession(
      session({ checkout_status: checkout, payment_status: payment, ...(code ? failed(code) : {}) }),
    );
    expect(result).toMatchObject({
      providerState: state,
      providerTxnStatus: txnStatus,
      providerTxId: null,
      failureCode,
    });
    if (code) expect(result?.failureReason).toBe(`msg ${code}`);
    // the domain reads the failure code the adapter gives, not the interface's numeric ones
    if (state !== 'PENDING') expect(outcomeOfOperatorResult(result!)).toMatchObject({ to: 'FAILED', failureCode });
  });

  it('complete + succeeded -> OK / 200 with the Wave transaction id and what Wave collected: a success the domain credits once compared', () => {
    const result = resultFromSession(
      session({ checkout_status: 'complete', payment_status: 'succeeded', transaction_id: 'TAH.1' }),
    )!;
    expect(result).toEqual({
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: 'TAH.1',
      failureReason: null,
      failureCode: null,
      reported: { amount: 1000, currency: 'XOF' },
    });
    expect(outcomeOfOperatorResult(result)).toMatchObject({ to: 'SUCCESS' });
  });

  it.each([
    [
      'succeeded without a transaction id',
      { checkout_status: 'complete', payment_status: 'succeeded', transaction_id: null },
    ],
    [
      'succeeded on a session still open',
      { checkout_status: 'open', payment_status: 'succeeded', transaction_id: 'T' },
    ],
    [
      'succeeded without a plain amount',
      { checkout_status: 'complete', payment_status: 'succeeded', transaction_id: 'T', amount: '1 000' },
    ],
  ] as const)('%s is outside the protocol (null), never a success', (_name, over) => {
    expect(resultFromSession(session(over))).toBeNull();
  });
});

describe('Wave wire shapes', () => {
  it('refuses a session without its statuses, accepts unknown fields', () => {
    expect(sessionOf({ ...session(), business_name: 'x', when_expires: 'y' })).not.toBeNull();
    expect(sessionOf({ ...session(), checkout_status: 'paid' })).toBeNull();
  });

  it('an event needs an id, a checkout type and a session naming our reference', () => {
    expect(eventOf({ id: 'AE_1', type: 'checkout.session.completed', data: session() })).not.toBeNull();
    expect(eventOf({ id: 'AE_1', type: 'merchant.payment_received', data: session() })).toBeNull();
    expect(
      eventOf({ id: 'AE_1', type: 'checkout.session.completed', data: session({ client_reference: null }) }),
    ).toBeNull();
  });

  it('checkout body: string amount, E.164 payer, error_url marked, our reference', () => {
    const body = toCheckoutBody({
      partnerReference: 'r',
      msisdn: '2250707000001',
      amount: 1500,
      currency: 'XOF',
      motif: null,
      callbackUrl: 'x',
      returnUrl: 'https://p/pay/1?l=fr',
    });
    expect(body).toEqual({
      amount: '1500',
      currency: 'XOF',
      success_url: 'https://p/pay/1?l=fr',
      error_url: 'https://p/pay/1?l=fr&wave=error',
      client_reference: 'r',
      restrict_payer_mobile: '+2250707000001',
    });
  });

  it('payout body: string receive_amount, our reference as client_reference', () => {
    expect(
      toPayoutBody({ partnerReference: 'c1', msisdn: '+221770000001', amount: 500, currency: 'XOF', reason: null }),
    ).toEqual({
      currency: 'XOF',
      receive_amount: '500',
      mobile: '+221770000001',
      payment_reason: '',
      client_reference: 'c1',
    });
  });

  it.each([
    ['succeeded', null, { state: 'OK', providerTxId: 'pt-1' }],
    ['processing', null, null],
    [
      'failed',
      { error_code: 'recipient-limit-exceeded', error_message: 'limit' },
      { state: 'FAILED', reason: 'recipient-limit-exceeded: limit' },
    ],
    ['failed', { code: 'insufficient-funds', message: 'low' }, { state: 'FAILED', reason: 'insufficient-funds: low' }],
    ['reversed', null, { state: 'FAILED', reason: 'reversed' }],
  ] as const)('payout %s (%j) -> %j', (status, payoutError, expected) => {
    expect(disbursementResultOf({ id: 'pt-1', status, payout_error: payoutError })).toEqual(expected);
  });

  it('the session of a reference (a retried push adopts it, a status query reads it): the paid one, else an open one, else the last', () => {
    const expired = session({ id: 'a', checkout_status: 'expired' });
    const open = session({ id: 'b' });
    const paid = session({ id: 'c', checkout_status: 'complete', payment_status: 'succeeded', transaction_id: 'T' });
    expect(pickSession([expired, open])?.id).toBe('b');
    expect(pickSession([open, paid])?.id).toBe('c');
    expect(pickSession([expired])?.id).toBe('a');
  });

  it('parses Wave-Signature with several v1 and refuses a header without t or v1', () => {
    expect(parseWaveSignature('t=1700000000,v1=AB,v1=cd')).toEqual({ t: '1700000000', v1: ['ab', 'cd'] });
    expect(parseWaveSignature('v1=ab')).toBeNull();
    expect(parseWaveSignature('t=1')).toBeNull();
    expect(parseWaveSignature('t=1,t=2,v1=ab')).toBeNull();
  });
});
