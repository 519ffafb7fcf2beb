import { OperatorRefusedError, OperatorUnavailableError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { startMpHarness, type MpHarness } from './harness.js';

describe('Orange mp adapter against the mp mock: outcomes', () => {
  let h: MpHarness;
  beforeAll(async () => {
    h = await startMpHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('succeeds: prepare gives a payToken, the pay is accepted with it, SUCCESSFULL reads OK/200 with the txnid', async () => {
    const { req, ack } = await h.pay(h.request('01'));
    expect(ack).toEqual({ accepted: true, providerSessionId: req.providerSessionId, customerAction: { type: 'NONE' } });
    expect(req.providerSessionId).toMatch(/^MP\d{6}/);
    const result = await h.settled(req);
    expect(result).toMatchObject({
      found: true,
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^MP/),
    });
    expect(h.mock.control.payment(req.providerSessionId!)).toMatchObject({
      subscriberMsisdn: '699000001',
      amount: String(req.amount),
      orderId: req.partnerReference,
      status: 'SUCCESSFULL',
    });
  });

  it('pushes without a stored payToken by asking init itself', async () => {
    const req = h.request('01');
    const ack = await h.adapter.pushUssd(req);
    expect(ack).toMatchObject({ accepted: true, providerSessionId: expect.stringMatching(/^MP/) });
    expect(h.mock.control.paysFor(req.partnerReference)).toBe(1);
  });

  it.each([
    ['02', '60019', 'INSUFFICIENT_BALANCE'],
    ['03', '00017', 'INVALID_SECRET_CODE'],
    ['04', '100004', 'THRESHOLD_REACHED'],
  ])('number ending %s fails with Orange code %s (%s), the code passed through', async (suffix, code, failureCode) => {
    const { req, ack } = await h.pay(h.request(suffix));
    const failed = {
      providerState: 'canceled',
      providerTxnStatus: code,
      failureCode,
      failureReason: expect.any(String),
    };
    // 02 and 04 are refused by the pay itself (417): the adapter reads the status Orange recorded and the push is
    // refused with it at once, never a blind failure; 03 (wrong PIN) is accepted, then fails.
    if (suffix === '03') expect(ack).toMatchObject({ accepted: true, providerSessionId: req.providerSessionId });
    else expect(ack).toEqual({ accepted: false, ...failed });
    await expect(h.settled(req)).resolves.toMatchObject(failed);
  });

  it('05: the customer cancels, CANCELLED reads canceled / CUSTOMER_DID_NOT_VALIDATE', async () => {
    const { req } = await h.pay(h.request('05'));
    await expect(h.settled(req)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'CANCELLED',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  it('06: never confirmed, PENDING until the payToken expires, then EXPIRED', async () => {
    const { req } = await h.pay(h.request('06'));
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
      providerState: 'PENDING',
      providerTxnStatus: 'PENDING',
    });
    await expect(h.settled(req)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'EXPIRED',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  it('07: refused at once (417 Beneficiaire introuvable), read from the status as a failure without a code', async () => {
    const { req, ack } = await h.pay(h.request('07'));
    expect(ack).toEqual({
      accepted: false,
      providerState: 'canceled',
      providerTxnStatus: 'FAILED',
      failureCode: 'UNKNOWN',
      failureReason: 'Beneficiaire introuvable',
    });
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'FAILED',
      failureCode: 'UNKNOWN',
      failureReason: 'Beneficiaire introuvable',
    });
  });

  it('09: confirmed late: still PENDING after the usual delay, then succeeds', async () => {
    const { req } = await h.pay(h.request('09'));
    await new Promise((r) => setTimeout(r, 100));
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ providerState: 'PENDING' });
    await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK', providerTxnStatus: '200' });
  });

  it('the same number and amount again within the window is FAILED without a cause: a failure the customer may retry', async () => {
    const first = await h.pay(h.request('01', { amount: 4321 }));
    const second = await h.pay(h.request('01', { amount: 4321 }));
    await expect(h.settled(first.req)).resolves.toMatchObject({ providerState: 'OK' });
    await expect(h.settled(second.req)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'FAILED',
      failureCode: 'UNKNOWN',
    });
  });

  it('a retried push with the same payToken is refused by Orange (417) and resolved by status: one payment only', async () => {
    const { req } = await h.pay(h.request('01'));
    const again = await h.adapter.pushUssd(req);
    expect(again).toEqual({
      accepted: true,
      providerSessionId: req.providerSessionId,
      customerAction: { type: 'NONE' },
    });
    expect(h.mock.control.paysFor(req.partnerReference)).toBe(1);
    await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK' });
  });

  it('paying with a payToken past its lifetime is refused; the adapter reads EXPIRED instead of failing blindly', async () => {
    const { providerSessionId } = await h.adapter.prepare();
    const req = { ...h.request('01'), providerSessionId };
    await waitFor(() => h.mock.control.payment(providerSessionId)?.status === 'EXPIRED', {
      timeoutMs: 3_000,
      what: 'the pay token to expire',
    });
    await expect(h.adapter.pushUssd(req)).resolves.toMatchObject({
      accepted: false,
      providerState: 'canceled',
      providerTxnStatus: 'EXPIRED',
    });
    expect(h.mock.control.payment(providerSessionId)).toMatchObject({ subscriberMsisdn: null, status: 'EXPIRED' });
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'EXPIRED',
    });
  });

  it('a pay refused while its token is still INITIATED (wrong merchant PIN) is an unknown outcome, not a failure: a first pay may not be visible yet', async () => {
    const wrongPin = new (h.adapter.constructor as typeof import('@mm/operators').OrangeMpAdapter)({
      baseUrl: h.mock.url,
      clientId: 'mp-user',
      clientSecret: 'mp-password',
      xAuthToken: 'mp-x-auth',
      channelUserMsisdn: '691234567',
      pin: '0000',
      timeoutMs: 2_000,
    });
    const error = await wrongPin.pushUssd(h.request('01')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperatorUnavailableError);
    expect(error).not.toBeInstanceOf(OperatorRefusedError);
  });

  it('an unknown payToken is found: false, and no payToken at all asks nothing', async () => {
    await expect(
      h.adapter.queryStatus({ ...h.request('01'), providerSessionId: 'MP000000UNKNOWN' }),
    ).resolves.toMatchObject({ found: false, providerState: 'PENDING' });
    await expect(h.adapter.queryStatus(h.request('01'))).resolves.toMatchObject({
      found: false,
      providerState: 'PENDING',
    });
  });

  it('refund and payout: no Orange API, refused with 501 (never a silent failure)', async () => {
    await expect(h.adapter.refund()).rejects.toMatchObject({
      name: 'OperatorRefusedError',
      operation: 'refund',
      httpStatus: 501,
    });
    await expect(h.adapter.disburse()).rejects.toMatchObject({
      name: 'OperatorRefusedError',
      operation: 'disbursement',
      httpStatus: 501,
    });
  });
});
