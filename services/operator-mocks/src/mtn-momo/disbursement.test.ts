import {
  mtnReferenceId,
  OperatorPendingError,
  OperatorRefusedError,
  OperatorUnavailableError,
  type RefundRequest,
  type UssdPushRequest,
} from '@mm/operators';
import { waitFor } from '@mm/testing';
import { accountCredentials, newReference, startMtnHarness, type MtnHarness } from './test-harness.js';

describe('MTN MoMo Disbursement: refunds and transfers answer 202 and are decided later', () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => h.mock.control.reset());

  async function paid(suffix = '01'): Promise<UssdPushRequest> {
    const req = h.request(suffix);
    await h.adapter.pushUssd(req);
    await waitFor(async () => (await h.adapter.queryStatus(h.lookup(req))).providerState === 'OK', {
      what: 'a paid cash-in',
    });
    return req;
  }
  const refundOf = (original: UssdPushRequest, amount = original.amount): RefundRequest => ({
    partnerReference: newReference(),
    originalPartnerReference: original.partnerReference,
    amount,
    currency: original.currency,
  });
  /** Asks again, as the refund worker does, until the operator decides. */
  const settled = <T>(call: () => Promise<T>) =>
    waitFor(
      () =>
        call().catch((e: unknown) => {
          if (e instanceof OperatorPendingError) return undefined;
          throw e;
        }),
      { what: 'a decision' },
    );

  it("a refund is pending first (OperatorPendingError with MTN's id), then OK; the original is named by its X-Reference-Id", async () => {
    const original = await paid();
    const refund = refundOf(original);
    const pending = await h.adapter.refund(refund).catch((e: unknown) => e);
    expect(pending).toBeInstanceOf(OperatorPendingError);
    expect(pending).toMatchObject({ operation: 'refund', providerId: mtnReferenceId(refund.partnerReference) });
    expect(h.record(refund.partnerReference)!.body).toMatchObject({
      amount: '5000',
      currency: 'XOF',
      externalId: refund.partnerReference,
      referenceIdToRefund: mtnReferenceId(original.partnerReference),
    });
    await expect(settled(() => h.adapter.refund(refund))).resolves.toEqual({
      state: 'OK',
      providerRefundId: expect.stringMatching(/^\d+$/),
    });
    // Asked again and again, it was posted once: each later call read it first.
    expect(h.record(refund.partnerReference)!.posts).toBe(1);
  });

  it("a refund of a payment that did not succeed fails with MTN's reason", async () => {
    const failed = h.request('02');
    await h.adapter.pushUssd(failed);
    const refund = refundOf(failed);
    await expect(settled(() => h.adapter.refund(refund))).resolves.toEqual({ state: 'FAILED', reason: 'NOT_ALLOWED' });
  });

  it('a payout is pending, then OK with financialTransactionId; the body names the payee without "+"', async () => {
    const payout = h.payout('01');
    await expect(h.adapter.disburse(payout)).rejects.toMatchObject({
      name: 'OperatorPendingError',
      operation: 'disbursement',
    });
    expect(h.record(payout.partnerReference)!.body).toEqual({
      amount: '2500',
      currency: 'XOF',
      externalId: payout.partnerReference,
      payee: { partyIdType: 'MSISDN', partyId: '2250500000001' },
      payerMessage: 'Payout 7',
      payeeNote: 'Payout 7',
    });
    await expect(settled(() => h.adapter.disburse(payout))).resolves.toEqual({
      state: 'OK',
      providerTxId: expect.stringMatching(/^\d+$/),
    });
  });

  it.each([
    ['11', 'PAYEE_NOT_FOUND'],
    ['12', 'PAYEE_NOT_ALLOWED_TO_RECEIVE'],
    ['02', 'NOT_ENOUGH_FUNDS'],
  ])('a payout to a number ending %s fails with %s', async (suffix, reason) => {
    const payout = h.payout(suffix);
    await expect(settled(() => h.adapter.disburse(payout))).resolves.toEqual({ state: 'FAILED', reason });
  });

  it('a payout MTN never decides stays OperatorPendingError, never FAILED', async () => {
    const payout = h.payout('06');
    const witness = h.payout('01');
    await expect(h.adapter.disburse(payout)).rejects.toBeInstanceOf(OperatorPendingError);
    await expect(h.adapter.disburse(witness)).rejects.toBeInstanceOf(OperatorPendingError);
    // Past the delay after which the one posted with it was decided.
    await settled(() => h.adapter.disburse(witness));
    await expect(h.adapter.disburse(payout)).rejects.toBeInstanceOf(OperatorPendingError);
    expect(h.record(payout.partnerReference)!.posts).toBe(1);
  });

  it('a transfer MTN took but answered too late: unavailable, and the retry reads it instead of paying twice', async () => {
    const adapter = h.adapterWith({ timeoutMs: 150 });
    h.mock.control.fault('transfer', { hangMs: 600, afterProcessing: true });
    const payout = h.payout('01');
    await expect(adapter.disburse(payout)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(settled(() => adapter.disburse(payout))).resolves.toMatchObject({ state: 'OK' });
    expect(h.record(payout.partnerReference)!.posts).toBe(1);
  });

  it('a transfer answered 409 (created meanwhile) is read, not refused', async () => {
    const payout = h.payout('01');
    h.mock.control.fault('transfer-status', { status: 404, body: { code: 'RESOURCE_NOT_FOUND', message: 'x' } });
    h.mock.control.fault('transfer', {
      status: 409,
      body: { code: 'RESOURCE_ALREADY_EXIST', message: 'x' },
      afterProcessing: true,
    });
    await expect(h.adapter.disburse(payout)).rejects.toBeInstanceOf(OperatorPendingError);
    expect(h.record(payout.partnerReference)).toBeDefined();
  });

  it('a refund refused with 500 NOT_ALLOWED is OperatorRefusedError; 500 INTERNAL_PROCESSING_ERROR is unavailable', async () => {
    const original = await paid();
    h.mock.control.fault('refund', { status: 500, body: { code: 'NOT_ALLOWED', message: 'Authorization failed.' } });
    await expect(h.adapter.refund(refundOf(original))).rejects.toMatchObject({
      name: 'OperatorRefusedError',
      operation: 'refund',
      httpStatus: 500,
    });
    h.mock.control.fault('refund', { status: 500 });
    await expect(h.adapter.refund(refundOf(original))).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('a 400 to a payout is a refusal; an account without Disbursement credentials cannot pay out', async () => {
    h.mock.control.fault('transfer', { status: 400, body: { code: 'INVALID_REQUEST', message: 'bad' } });
    await expect(h.adapter.disburse(h.payout('01'))).rejects.toBeInstanceOf(OperatorRefusedError);
    const {
      disbursementSubscriptionKey: _k,
      disbursementApiUser: _u,
      disbursementApiKey: _a,
      ...collectionOnly
    } = accountCredentials();
    await expect(h.adapterWith({ credentials: collectionOnly }).disburse(h.payout('01'))).rejects.toThrow(
      /no Disbursement credentials/,
    );
  });
});
