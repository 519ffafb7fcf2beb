import { mtnReferenceId, OperatorRefusedError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { startMtnHarness, type MtnHarness } from './test-harness.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('MTN MoMo Collection (requesttopay), driven through the mtn-momo adapter', () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => h.mock.control.reset());

  const decided = (req: { partnerReference: string; msisdn: string; amount: number; currency: string }) =>
    waitFor(
      async () => {
        const r = await h.adapter.queryStatus(h.lookup(req));
        return r.providerState !== 'PENDING' && r;
      },
      { what: 'a decided status' },
    );

  it('a push is accepted without a session id (MTN gives none), then succeeds with financialTransactionId as provider_tx_id', async () => {
    const req = h.request('01');
    await expect(h.adapter.pushUssd(req)).resolves.toEqual({
      accepted: true,
      providerSessionId: null,
      customerAction: { type: 'NONE' },
    });
    const record = h.record(req.partnerReference)!;
    expect(record.referenceId).toMatch(UUID_V4);
    expect(record.body).toEqual({
      amount: '5000',
      currency: 'XOF',
      externalId: req.partnerReference,
      payer: { partyIdType: 'MSISDN', partyId: '2250500000001' },
      payerMessage: 'Commande 42',
      payeeNote: 'Commande 42',
    });
    expect(record.callbackUrl).toBe(req.callbackUrl);
    await expect(h.adapter.queryStatus(h.lookup(req))).resolves.toMatchObject({
      found: true,
      providerState: 'PENDING',
    });
    await expect(decided(req)).resolves.toEqual({
      found: true,
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^\d+$/),
      failureReason: null,
      failureCode: null,
    });
  });

  it.each([
    ['02', 'NOT_ENOUGH_FUNDS', 'canceled', 'INSUFFICIENT_BALANCE'],
    ['03', 'INTERNAL_PROCESSING_ERROR', 'KO', 'UNKNOWN'],
    ['04', 'PAYER_LIMIT_REACHED', 'canceled', 'THRESHOLD_REACHED'],
    ['05', 'APPROVAL_REJECTED', 'canceled', 'CUSTOMER_DID_NOT_VALIDATE'],
  ])('a number ending %s fails with %s', async (suffix, reason, state, failureCode) => {
    const req = h.request(suffix);
    await h.adapter.pushUssd(req);
    await expect(decided(req)).resolves.toMatchObject({
      providerState: state,
      providerTxnStatus: reason,
      failureReason: reason,
      failureCode,
    });
  });

  it.each([
    ['PAYER_NOT_FOUND', 'PAYER_NOT_FOUND'],
    ['SENDER_ACCOUNT_NOT_ACTIVE', 'OPERATOR_REJECTED'],
    ['EXPIRED', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['COULD_NOT_PERFORM_TRANSACTION', 'CUSTOMER_DID_NOT_VALIDATE'],
    ['NOT_ALLOWED', 'OPERATOR_REJECTED'],
    ['SERVICE_UNAVAILABLE', 'OPERATOR_UNAVAILABLE'],
  ])('a request MTN fails with %s reads as %s', async (reason, failureCode) => {
    const req = h.request('42', { msisdn: '+2250511111142' });
    h.mock.control.setOutcome('requesttopay', '2250511111142', { final: { status: 'FAILED', reason, afterMs: 10 } });
    await h.adapter.pushUssd(req);
    await expect(decided(req)).resolves.toMatchObject({ providerTxnStatus: reason, failureCode });
  });

  it('a number ending 06 stays PENDING; 09 succeeds only after lateConfirmDelayMs', async () => {
    const never = h.request('06');
    const late = h.request('09');
    await h.adapter.pushUssd(never);
    await h.adapter.pushUssd(late);
    await expect(h.adapter.queryStatus(h.lookup(late))).resolves.toMatchObject({ providerState: 'PENDING' });
    await expect(decided(late)).resolves.toMatchObject({ providerState: 'OK', providerTxnStatus: '200' });
    await expect(h.adapter.queryStatus(h.lookup(never))).resolves.toMatchObject({
      found: true,
      providerState: 'PENDING',
    });
  });

  it("a number ending 07 is refused at once (500 PAYER_NOT_FOUND): a rejected ack with MTN's code, nothing created", async () => {
    const req = h.request('07');
    await expect(h.adapter.pushUssd(req)).resolves.toEqual({
      accepted: false,
      providerState: 'KO',
      providerTxnStatus: 'PAYER_NOT_FOUND',
      failureCode: 'PAYER_NOT_FOUND',
    });
    await expect(h.adapter.queryStatus(h.lookup(req))).resolves.toMatchObject({
      found: false,
      providerState: 'PENDING',
    });
  });

  it('a retried push (409 RESOURCE_ALREADY_EXIST) is looked up and acknowledged again: one request at MTN', async () => {
    const req = h.request('01');
    await h.adapter.pushUssd(req);
    await expect(h.adapter.pushUssd(req)).resolves.toEqual({
      accepted: true,
      providerSessionId: null,
      customerAction: { type: 'NONE' },
    });
    expect(h.record(req.partnerReference)).toMatchObject({ posts: 2, status: 'PENDING' });
    await expect(decided(req)).resolves.toMatchObject({ providerState: 'OK' });
  });

  it('a 409 for an X-Reference-Id held by another externalId is a refusal, not an adoption', async () => {
    const req = h.request('01');
    // Someone else's request under the id our reference derives to (a collision, or a misuse of the account).
    const token = await h.token('collection');
    const res = await h.raw('POST', '/collection/v1_0/requesttopay', token, 'collection', {
      headers: { 'X-Reference-Id': mtnReferenceId(req.partnerReference) },
      body: {
        amount: '10',
        currency: 'XOF',
        externalId: 'NOT-OURS',
        payer: { partyIdType: 'MSISDN', partyId: '2250500000001' },
        payerMessage: '',
        payeeNote: '',
      },
    });
    expect(res.status).toBe(202);
    const error = await h.adapter.pushUssd(req).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperatorRefusedError);
    expect(error).toMatchObject({ operation: 'push', httpStatus: 409 });
  });

  it('an unknown reference is not found: PENDING with found false', async () => {
    await expect(h.adapter.queryStatus(h.lookup(h.request('01')))).resolves.toEqual({
      found: false,
      providerState: 'PENDING',
      providerTxnStatus: null,
      providerTxId: null,
      failureReason: null,
    });
  });
});
