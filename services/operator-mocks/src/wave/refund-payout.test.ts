import { waitFor } from '@mm/testing';
import { OperatorPendingError, OperatorRefusedError, OperatorUnavailableError } from '@mm/operators';
import { checkout, waveHarness } from './test-support.js';

describe('Wave adapter against the Wave mock: refunds and payouts', () => {
  let h: Awaited<ReturnType<typeof waveHarness>>;
  beforeAll(async () => {
    h = await waveHarness({ timeoutMs: 300 });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => h.mock.control.reset());

  async function paid(ending = '01') {
    const req = checkout(ending);
    const ack = await h.adapter.pushUssd(req);
    const sessionId = ack.accepted ? ack.providerSessionId! : '';
    if (ending === '01')
      await waitFor(() => h.mock.control.session(sessionId)?.payment_status === 'succeeded', { what: 'the payment' });
    const refund = {
      partnerReference: `${req.partnerReference}-r`,
      originalPartnerReference: req.partnerReference,
      amount: req.amount,
      currency: 'XOF',
      original: { ...req, providerSessionId: sessionId, providerTxId: null },
    };
    return { req, sessionId, refund };
  }

  it('refunds the whole checkout; a repeated refund answers OK again and gives nothing more back', async () => {
    const { sessionId, refund } = await paid();
    await expect(h.adapter.refund(refund)).resolves.toEqual({ state: 'OK', providerRefundId: sessionId });
    await expect(h.adapter.refund(refund)).resolves.toEqual({ state: 'OK', providerRefundId: sessionId });
    expect(h.mock.control.refundsPaid(sessionId)).toBe(1);
  });

  it('finds the session by client_reference when the stored payment has no session id', async () => {
    const { sessionId, refund } = await paid();
    await expect(h.adapter.refund({ ...refund, original: undefined })).resolves.toEqual({
      state: 'OK',
      providerRefundId: sessionId,
    });
  });

  it('a partial refund is refused by the adapter before Wave is asked (Wave refunds a checkout in full only)', async () => {
    const { sessionId, refund } = await paid();
    const error = await h.adapter.refund({ ...refund, amount: 400 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperatorRefusedError);
    expect(error).toMatchObject({
      operation: 'refund',
      httpStatus: 400,
      detail: 'Wave refunds a checkout in full only',
    });
    expect(h.mock.control.refundsPaid(sessionId)).toBe(0);
  });

  it("a checkout that was not paid: Wave's checkout-refund-failed, a FAILED refund", async () => {
    const { refund } = await paid('06');
    await expect(h.adapter.refund(refund)).resolves.toEqual({
      state: 'FAILED',
      reason: expect.stringMatching(/^checkout-refund-failed/),
    });
  });

  it('an unknown session is FAILED UNKNOWN_TRANSACTION; a 5xx is OperatorUnavailableError and refunds nothing', async () => {
    const { sessionId, refund } = await paid();
    await expect(
      h.adapter.refund({ ...refund, original: { ...refund.original, providerSessionId: 'cos-nope' } }),
    ).resolves.toEqual({ state: 'FAILED', reason: 'UNKNOWN_TRANSACTION' });
    h.mock.control.fault('refundSession', { status: 502 });
    await expect(h.adapter.refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
    expect(h.mock.control.refundsPaid(sessionId)).toBe(0);
  });

  const payout = (ending: string) => ({
    partnerReference: `wave-payout-${ending}-${Math.random().toString(36).slice(2)}`,
    msisdn: `+2250700000${ending}`,
    amount: 2500,
    currency: 'XOF',
    reason: 'refund',
  });

  it('a payout is processing (OperatorPendingError with the payout id), then succeeded on a later call with the same reference, paid once', async () => {
    const req = payout('01');
    const pending = await h.adapter.disburse(req).catch((e: unknown) => e);
    expect(pending).toBeInstanceOf(OperatorPendingError);
    const payoutId = (pending as OperatorPendingError).providerId;
    expect(payoutId).toMatch(/^pt-/);
    const result = await waitFor(() => h.adapter.disburse(req).catch(() => undefined), { what: 'a decided payout' });
    expect(result).toEqual({ state: 'OK', providerTxId: payoutId });
    expect(h.mock.control.payoutsFor(req.partnerReference)).toHaveLength(1);
  });

  it.each([
    ['02', 'insufficient-funds'],
    ['03', 'recipient-account-blocked'],
    ['04', 'recipient-limit-exceeded'],
    ['05', 'recipient-account-inactive'],
  ])("recipient ending %s: FAILED with Wave's %s", async (ending, code) => {
    const req = payout(ending);
    const result = await waitFor(() => h.adapter.disburse(req).catch(() => undefined), { what: 'a decided payout' });
    expect(result).toEqual({ state: 'FAILED', reason: expect.stringMatching(new RegExp(`^${code}: `)) });
  });

  it('recipient ending 06 stays processing; 07 is refused at once', async () => {
    await new Promise((r) => setTimeout(r, 100));
    await expect(h.adapter.disburse(payout('06'))).rejects.toBeInstanceOf(OperatorPendingError);
    await expect(h.adapter.disburse(payout('07'))).rejects.toMatchObject({
      name: 'OperatorRefusedError',
      httpStatus: 400,
    });
  });

  it('a payout whose answer is lost: OperatorUnavailableError, and the retry finds it instead of paying twice', async () => {
    const req = payout('01');
    h.mock.control.fault('createPayout', { lostAnswerMs: 1_000 });
    await expect(h.adapter.disburse(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await waitFor(() => h.adapter.disburse(req).catch(() => undefined), { what: 'a decided payout' });
    expect(h.mock.control.payoutsFor(req.partnerReference)).toHaveLength(1);
  });

  it('Wave answers a repeated Idempotency-Key with its first answer, and refuses it with another body', async () => {
    const post = (body: object) =>
      fetch(`${h.mock.url}/v1/payout`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: {
          'Content-Type': 'application/json',
          Authorization: 'Bearer wave_ci_sandbox_mockDemoKey0123456789',
          'Idempotency-Key': 'k-1',
        },
      });
    const body = { currency: 'XOF', receive_amount: '100', mobile: '+2250700000001', client_reference: 'k-1' };
    const first = await (await post(body)).json();
    const second = await (await post(body)).json();
    expect(second).toEqual(first);
    const other = await post({ ...body, receive_amount: '200' });
    expect(other.status).toBe(409);
    await expect(other.json()).resolves.toMatchObject({ code: 'idempotency-mismatch' });
  });
});
