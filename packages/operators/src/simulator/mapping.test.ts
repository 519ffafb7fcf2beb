import {
  ackFromPushResponse,
  disbursementResultFromResponse,
  refundResultFromResponse,
  resultFromCallback,
  resultFromStatusResponse,
  toDisbursementBody,
  toPushBody,
  toRefundBody,
} from './mapping.js';

describe('simulator wire mapping', () => {
  it("builds the push body in the operator's snake_case", () => {
    expect(
      toPushBody({
        partnerReference: 'tx_1',
        msisdn: '+2250700000001',
        amount: 1500,
        currency: 'XOF',
        motif: null,
        callbackUrl: 'http://h/cb',
      }),
    ).toEqual({
      partner_reference: 'tx_1',
      msisdn: '+2250700000001',
      amount: 1500,
      currency: 'XOF',
      motif: null,
      callback_url: 'http://h/cb',
    });
  });

  describe('push acknowledgement', () => {
    it('201 with a session is accepted, whatever state it reports', () => {
      expect(ackFromPushResponse(201, { session_id: 'S1', state: 'PENDING' })).toEqual({
        accepted: true,
        providerSessionId: 'S1',
      });
      expect(ackFromPushResponse(201, { session_id: 'S1', state: 'OK' })).toEqual({
        accepted: true,
        providerSessionId: 'S1',
      });
    });

    it('201 with customer_action OTP carries the USSD code the customer dials onto the ack', () => {
      expect(
        ackFromPushResponse(201, {
          session_id: 'S1',
          state: 'PENDING',
          customer_action: { type: 'OTP', ussd: '#144*82#' },
        }),
      ).toEqual({ accepted: true, providerSessionId: 'S1', customerAction: { type: 'OTP', ussd: '#144*82#' } });
    });

    it.each([
      [{ type: 'REDIRECT', url: 'https://evil.example' }],
      [{ type: 'OTP' }],
      [{ type: 'OTP', ussd: '' }],
      ['OTP'],
    ])('201 with a customer_action outside the protocol (%j) is null', (action) => {
      expect(ackFromPushResponse(201, { session_id: 'S1', state: 'PENDING', customer_action: action })).toBeNull();
    });

    it('200 KO is a refusal carrying the txn status', () => {
      expect(ackFromPushResponse(200, { state: 'KO', txn_status: '40001' })).toEqual({
        accepted: false,
        providerState: 'KO',
        providerTxnStatus: '40001',
      });
      expect(ackFromPushResponse(200, { state: 'KO' })).toEqual({
        accepted: false,
        providerState: 'KO',
        providerTxnStatus: null,
      });
    });

    it.each([
      [201, {}],
      [201, { session_id: '' }],
      [200, { state: 'PENDING', session_id: 'S1' }],
      [200, 'KO'],
      [202, { session_id: 'S1' }],
    ])('%s %j is outside the protocol (null)', (status, body) => {
      expect(ackFromPushResponse(status, body)).toBeNull();
    });
  });

  describe('status query', () => {
    it('maps every field', () => {
      expect(
        resultFromStatusResponse(200, {
          partner_reference: 'tx_1',
          session_id: 'S1',
          state: 'canceled',
          txn_status: '54321',
          provider_tx_id: null,
          failure_reason: '60019',
        }),
      ).toEqual({
        found: true,
        providerState: 'canceled',
        providerTxnStatus: '54321',
        providerTxId: null,
        failureReason: '60019',
      });
    });

    it('404 means never registered: not found, still PENDING', () => {
      expect(resultFromStatusResponse(404, { error: 'not_found' })).toEqual({
        found: false,
        providerState: 'PENDING',
        providerTxnStatus: null,
        providerTxId: null,
        failureReason: null,
      });
    });

    it.each([
      [{ partner_reference: 'tx_1', state: 'DONE', txn_status: null, provider_tx_id: null, failure_reason: null }],
      [{ partner_reference: 'tx_1', state: 'OK', txn_status: 200, provider_tx_id: 'MP1', failure_reason: null }],
      [{ partner_reference: 'tx_1', state: 'OK', txn_status: '200', failure_reason: null }],
    ])('rejects %j', (body) => {
      expect(resultFromStatusResponse(200, body)).toBeNull();
    });
  });

  describe('callback body', () => {
    const body = {
      partner_reference: 'tx_1',
      session_id: 'S1',
      provider_tx_id: 'MP1',
      state: 'OK',
      txn_status: '200',
      failure_reason: null,
    };

    it('maps to OperatorResult plus the reference and session', () => {
      expect(resultFromCallback(body)).toEqual({
        partnerReference: 'tx_1',
        providerSessionId: 'S1',
        providerState: 'OK',
        providerTxnStatus: '200',
        providerTxId: 'MP1',
        failureReason: null,
      });
    });

    it('tolerates fields the operator adds later', () => {
      expect(resultFromCallback({ ...body, new_field: 1 })).not.toBeNull();
    });

    it.each([
      ['no reference', { ...body, partner_reference: undefined }],
      ['an unknown state', { ...body, state: 'SUCCESS' }],
      ['a missing failure_reason', { ...body, failure_reason: undefined }],
      ['not an object', ['tx_1']],
      ['null', null],
    ])('rejects %s', (_what, data) => {
      expect(resultFromCallback(data)).toBeNull();
    });
  });

  describe('refund', () => {
    it('builds the refund body in snake_case', () => {
      expect(
        toRefundBody({ partnerReference: 'rf_1', originalPartnerReference: 'tx_1', amount: 99.5, currency: 'XOF' }),
      ).toEqual({
        partner_reference: 'rf_1',
        original_partner_reference: 'tx_1',
        amount: 99.5,
        currency: 'XOF',
      });
    });

    it("200 OK carries the refund id; 200 FAILED carries the operator's reason as is", () => {
      expect(refundResultFromResponse(200, { state: 'OK', refund_id: 'RF1', extra: 1 })).toEqual({
        state: 'OK',
        providerRefundId: 'RF1',
      });
      expect(refundResultFromResponse(200, { state: 'FAILED', reason: 'REFUND_REJECTED' })).toEqual({
        state: 'FAILED',
        reason: 'REFUND_REJECTED',
      });
      expect(refundResultFromResponse(200, { state: 'FAILED', reason: 'SOMETHING_NEW' })).toEqual({
        state: 'FAILED',
        reason: 'SOMETHING_NEW',
      });
    });

    it('404 unknown_transaction and 409 not_refundable are FAILED', () => {
      expect(refundResultFromResponse(404, { error: 'unknown_transaction' })).toEqual({
        state: 'FAILED',
        reason: 'UNKNOWN_TRANSACTION',
      });
      expect(refundResultFromResponse(409, { error: 'not_refundable' })).toEqual({
        state: 'FAILED',
        reason: 'NOT_REFUNDABLE',
      });
    });

    it.each([
      [200, { state: 'OK' }],
      [200, { state: 'OK', refund_id: '' }],
      [200, { state: 'FAILED' }],
      [200, { state: 'FAILED', reason: 12 }],
      [200, { state: 'PENDING', refund_id: 'RF1' }],
      [200, null],
      [201, { state: 'OK', refund_id: 'RF1' }],
      [404, { error: 'not_found' }],
      [404, 'unknown_transaction'],
      [409, {}],
      [400, { error: 'invalid_request' }],
    ])('%s %j is outside the protocol (null)', (status, body) => {
      expect(refundResultFromResponse(status, body)).toBeNull();
    });
  });

  describe('disbursement', () => {
    it('builds the disbursement body in snake_case, reason included even when null', () => {
      expect(
        toDisbursementBody({
          partnerReference: 'co_1',
          msisdn: '+2250700000042',
          amount: 99.5,
          currency: 'XOF',
          reason: 'Payout',
        }),
      ).toEqual({
        partner_reference: 'co_1',
        msisdn: '+2250700000042',
        amount: 99.5,
        currency: 'XOF',
        reason: 'Payout',
      });
      expect(
        toDisbursementBody({
          partnerReference: 'co_1',
          msisdn: '+2250700000042',
          amount: 1,
          currency: 'XOF',
          reason: null,
        }),
      ).toMatchObject({ reason: null });
    });

    it("200 OK carries the disbursement id as providerTxId; 200 FAILED carries the operator's reason as is", () => {
      expect(disbursementResultFromResponse(200, { state: 'OK', disbursement_id: 'DB1', extra: 1 })).toEqual({
        state: 'OK',
        providerTxId: 'DB1',
      });
      expect(disbursementResultFromResponse(200, { state: 'FAILED', reason: 'BENEFICIARY_NOT_FOUND' })).toEqual({
        state: 'FAILED',
        reason: 'BENEFICIARY_NOT_FOUND',
      });
      expect(disbursementResultFromResponse(200, { state: 'FAILED', reason: 'BENEFICIARY_LIMIT_EXCEEDED' })).toEqual({
        state: 'FAILED',
        reason: 'BENEFICIARY_LIMIT_EXCEEDED',
      });
      expect(disbursementResultFromResponse(200, { state: 'FAILED', reason: 'SOMETHING_NEW' })).toEqual({
        state: 'FAILED',
        reason: 'SOMETHING_NEW',
      });
    });

    it.each([
      [200, { state: 'OK' }],
      [200, { state: 'OK', disbursement_id: '' }],
      [200, { state: 'OK', disbursement_id: 7 }],
      [200, { state: 'OK', refund_id: 'RF1' }],
      [200, { state: 'FAILED' }],
      [200, { state: 'FAILED', reason: '' }],
      [200, { state: 'PENDING', disbursement_id: 'DB1' }],
      [200, null],
      [200, 'OK'],
      [201, { state: 'OK', disbursement_id: 'DB1' }],
      [404, { error: 'not_found' }],
      [400, { error: 'invalid_request' }],
      [503, { error: 'unavailable' }],
    ])('%s %j is outside the protocol (null)', (status, body) => {
      expect(disbursementResultFromResponse(status, body)).toBeNull();
    });
  });
});
