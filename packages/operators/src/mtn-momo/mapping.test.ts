import { outcomeOfOperatorResult } from '@mm/domain';
import { hintFromCallback } from './callback.js';
import { failedResult, mtnNote, partyOf, resultFromStatusBody, statusLookup, toRequestToPayBody } from './mapping.js';
import { mtnReferenceId, UUID_V4 } from './reference-id.js';

describe('MTN status body -> OperatorResult', () => {
  it.each([
    ['PAYER_NOT_FOUND', 'canceled', 'PAYER_NOT_FOUND'],
    ['NOT_ENOUGH_FUNDS', 'canceled', 'INSUFFICIENT_BALANCE'],
    ['PAYER_LIMIT_REACHED', 'canceled', 'THRESHOLD_REACHED'],
    ['SENDER_ACCOUNT_NOT_ACTIVE', 'canceled', 'OPERATOR_REJECTED'],
    ['APPROVAL_REJECTED', 'canceled', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['EXPIRED', 'canceled', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['COULD_NOT_PERFORM_TRANSACTION', 'canceled', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['PAYMENT_NOT_APPROVED', 'canceled', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['TRANSACTION_CANCELED', 'canceled', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['INTERNAL_PROCESSING_ERROR', 'KO', 'UNKNOWN'],
    ['NOT_ALLOWED', 'KO', 'OPERATOR_REJECTED'],
    ['NOT_ALLOWED_TARGET_ENVIRONMENT', 'KO', 'OPERATOR_REJECTED'],
    ['INVALID_CURRENCY', 'KO', 'OPERATOR_REJECTED'],
    ['SERVICE_UNAVAILABLE', 'KO', 'OPERATOR_UNAVAILABLE'],
    ['PAYEE_NOT_FOUND', 'KO', 'OPERATOR_REJECTED'],
    ['PAYEE_NOT_ALLOWED_TO_RECEIVE', 'KO', 'OPERATOR_REJECTED'],
    ['SOMETHING_MTN_ADDS_LATER', 'KO', 'UNKNOWN'],
  ])(
    'FAILED %s -> %s / %s, the reason kept as provider_txn_status and failure_reason',
    (reason, state, failureCode) => {
      const result = resultFromStatusBody({ externalId: 'MM1', status: 'FAILED', reason });
      expect(result).toEqual({
        providerState: state,
        providerTxnStatus: reason,
        providerTxId: null,
        failureReason: reason,
        failureCode,
      });
      // The service reads it as a failure with that very code.
      expect(outcomeOfOperatorResult(result!)).toEqual({ to: 'FAILED', failureCode, failureReason: reason });
    },
  );

  it("the OpenAPI file's {code, message} reason reads like the bare string, with the message as failure_reason", () => {
    expect(
      resultFromStatusBody({ status: 'FAILED', reason: { code: 'NOT_ENOUGH_FUNDS', message: 'Balance too low' } }),
    ).toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'NOT_ENOUGH_FUNDS',
      failureReason: 'Balance too low',
      failureCode: 'INSUFFICIENT_BALANCE',
    });
  });

  it('FAILED without a reason is a KO of unknown cause, never a success', () => {
    expect(resultFromStatusBody({ status: 'FAILED' })).toMatchObject({
      providerState: 'KO',
      providerTxnStatus: 'FAILED',
      failureCode: 'UNKNOWN',
    });
  });

  it('SUCCESSFUL -> OK / 200 with financialTransactionId as provider_tx_id (a number in the OpenAPI example)', () => {
    expect(resultFromStatusBody({ status: 'SUCCESSFUL', financialTransactionId: '23503452' })).toEqual({
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: '23503452',
      failureReason: null,
      failureCode: null,
    });
    expect(resultFromStatusBody({ status: 'SUCCESSFUL', financialTransactionId: 23503452 })).toMatchObject({
      providerTxId: '23503452',
    });
  });

  it.each(['PENDING', 'CREATED', 'ONGOING'])(
    '%s -> PENDING (CREATED and ONGOING are undocumented sandbox statuses)',
    (status) => {
      expect(resultFromStatusBody({ status })).toEqual({
        providerState: 'PENDING',
        providerTxnStatus: null,
        providerTxId: null,
        failureReason: null,
      });
    },
  );

  it.each([[{ status: 'WEIRD' }], [{}], [null], ['FAILED'], [{ status: 'FAILED', reason: 42 }]])(
    '%j is outside the protocol: null',
    (body) => {
      expect(resultFromStatusBody(body)).toBeNull();
    },
  );

  it('404 RESOURCE_NOT_FOUND = not found (PENDING); a 404 without that code is not the protocol', () => {
    expect(statusLookup(404, { code: 'RESOURCE_NOT_FOUND', message: 'x' })).toMatchObject({
      found: false,
      providerState: 'PENDING',
    });
    expect(statusLookup(404, '<html>')).toBeNull();
    expect(statusLookup(200, { status: 'PENDING' })).toMatchObject({ found: true, providerState: 'PENDING' });
  });

  it('a failure reason is bounded to 200 characters', () => {
    expect(failedResult({ code: 'X', message: 'm'.repeat(500) }).failureReason).toHaveLength(200);
  });
});

describe('MTN request bodies and reference ids', () => {
  it('X-Reference-Id is a UUID v4 derived from our reference: the same on retry, different per reference', () => {
    const id = mtnReferenceId('MMABCDEFGHIJKLMNOPQRST');
    expect(id).toMatch(UUID_V4);
    expect(mtnReferenceId('MMABCDEFGHIJKLMNOPQRST')).toBe(id);
    expect(mtnReferenceId('MMABCDEFGHIJKLMNOPQRSU')).not.toBe(id);
  });

  it('requesttopay body: amount as a string, partyId without "+", our reference as externalId, notes cleaned to 160', () => {
    const body = toRequestToPayBody({
      partnerReference: 'MM1',
      msisdn: '+2250500000001',
      amount: 5000,
      currency: 'XOF',
      motif: `Achat d'un billet ${'x'.repeat(300)}`,
      callbackUrl: 'http://h/cb/MM1',
    });
    expect(body).toMatchObject({
      amount: '5000',
      currency: 'XOF',
      externalId: 'MM1',
      payer: { partyIdType: 'MSISDN', partyId: '2250500000001' },
    });
    expect(body.payerMessage).toHaveLength(160);
    expect(body.payerMessage.startsWith('Achat d un billet')).toBe(true);
    expect(mtnNote('Réservation n°12', 'x')).toBe('Reservation n 12');
    expect(mtnNote(null, 'Payment MM1')).toBe('Payment MM1');
    expect(partyOf('+237 67 000 0001').partyId).toBe('237670000001');
  });
});

describe('hintFromCallback (MTN callbacks are unsigned: a hint at most)', () => {
  const body = (o: unknown) => Buffer.from(JSON.stringify(o));
  const failed = body({ externalId: 'MM1', status: 'FAILED', reason: 'EXPIRED' });

  it.each(['/MM1', 'MM1'])(
    'names the payment of the callback URL (path %s), with a replay key of the bytes',
    (path) => {
      const hint = hintFromCallback(failed, path);
      expect(hint).toEqual({ hint: true, partnerReference: 'MM1', replayKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(hintFromCallback(failed, path)!.replayKey).toBe(hint!.replayKey);
      expect(hintFromCallback(body({ externalId: 'MM1', status: 'SUCCESSFUL' }), path)!.replayKey).not.toBe(
        hint!.replayKey,
      );
    },
  );

  it.each([
    ['no path', failed, undefined],
    ['an empty path', failed, '/'],
    ['a nested path', failed, '/MM1/x'],
    ['not JSON', Buffer.from('{'), '/MM1'],
    ['no status', body({ externalId: 'MM1' }), '/MM1'],
    ['an externalId naming another payment', body({ externalId: 'MM2', status: 'SUCCESSFUL' }), '/MM1'],
  ])('null for %s', (_what, raw, path) => {
    expect(hintFromCallback(raw, path)).toBeNull();
  });
});
