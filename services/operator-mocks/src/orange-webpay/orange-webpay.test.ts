import { OperatorRefusedError } from '@mm/operators';
import { startWebpayHarness, type WebpayHarness } from './harness.js';

describe('Orange WebPay adapter against the WebPay mock: outcomes', () => {
  let h: WebpayHarness;
  beforeAll(async () => {
    h = await startWebpayHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('init: pay_token as the session, a REDIRECT to payment_url; then SUCCESS reads OK/200 with the txnid', async () => {
    const { req, ack } = await h.payWith('01');
    expect(ack).toEqual({
      accepted: true,
      providerSessionId: expect.stringMatching(/^v1/),
      customerAction: { type: 'REDIRECT', url: `${h.mock.url}/mpayment-otp/${ack.accepted && ack.providerSessionId}` },
    });
    expect(h.mock.control.payment(req.providerSessionId!)).toMatchObject({
      country: 'ci',
      orderId: req.partnerReference,
      amount: 1500,
      currency: 'XOF',
      notifUrl: req.callbackUrl,
      returnUrl: req.returnUrl,
      cancelUrl: `${req.returnUrl}?orange=cancel`,
    });
    await expect(h.settled(req)).resolves.toMatchObject({
      found: true,
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^MP/),
    });
  });

  it('the customer pays through the real HTML page (no script, CSP) and is sent back to return_url', async () => {
    // A session that outlives a busy machine: with the suite's 500 ms, a slow page fetch and POST let the
    // payment expire first (seen once in CI, as 'canceled' instead of 'OK').
    const h = await startWebpayHarness({ sessionLifetimeMs: 60_000 });
    try {
      await payThroughThePage(h);
    } finally {
      await h.close();
    }
  });

  async function payThroughThePage(h: WebpayHarness): Promise<void> {
    const req = h.request();
    const ack = await h.adapter.pushUssd(req);
    const url = ack.accepted && ack.customerAction?.type === 'REDIRECT' ? ack.customerAction.url : '';
    const page = await fetch(url);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).not.toContain('<script');
    expect(html).toContain('1500 XOF');
    const paid = await fetch(`${url}/pay`, {
      method: 'POST',
      body: new URLSearchParams({ msisdn: '0700000001' }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(req.returnUrl);
    await expect(
      h.settled({ ...req, providerSessionId: ack.accepted ? ack.providerSessionId : null }),
    ).resolves.toMatchObject({ providerState: 'OK' });
  }

  it('Cancel on the page sends the customer to cancel_url; the payment stays INITIATED until it EXPIRES', async () => {
    const req = h.request();
    const ack = await h.adapter.pushUssd(req);
    const stored = { ...req, providerSessionId: ack.accepted ? ack.providerSessionId : null };
    const cancelled = await fetch(`${h.mock.url}/mpayment-otp/${stored.providerSessionId}/cancel`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(cancelled.headers.get('location')).toBe(`${req.returnUrl}?orange=cancel`);
    await expect(h.adapter.queryStatus(stored)).resolves.toMatchObject({
      providerState: 'PENDING',
      providerTxnStatus: 'INITIATED',
    });
    await expect(h.settled(stored)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'EXPIRED',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  it.each([
    ['02', '60019', 'INSUFFICIENT_BALANCE'],
    ['03', '00017', 'INVALID_SECRET_CODE'],
    ['04', '100004', 'THRESHOLD_REACHED'],
  ])('number ending %s: FAILED with Orange code %s (%s)', async (suffix, code, failureCode) => {
    const { req } = await h.payWith(suffix);
    await expect(h.settled(req)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: code,
      failureCode,
      failureReason: expect.any(String),
    });
  });

  it('05: the customer declines: nothing recorded, INITIATED then EXPIRED', async () => {
    const { req } = await h.payWith('05');
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ providerTxnStatus: 'INITIATED' });
    await expect(h.settled(req)).resolves.toMatchObject({
      providerTxnStatus: 'EXPIRED',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  it('06: confirmed but never completed: PENDING, then EXPIRED (confirmed too late)', async () => {
    const { req } = await h.payWith('06');
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
      providerState: 'PENDING',
      providerTxnStatus: 'PENDING',
    });
    await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'canceled', providerTxnStatus: 'EXPIRED' });
  });

  it('07: refused at once, FAILED without a cause', async () => {
    const { req } = await h.payWith('07');
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'FAILED',
      failureCode: 'UNKNOWN',
    });
  });

  it('09: still PENDING after the usual delay, then SUCCESS', async () => {
    const { req } = await h.payWith('09');
    await new Promise((r) => setTimeout(r, 80));
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ providerState: 'PENDING' });
    await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK' });
  });

  it('dev environment: path /dev/ and currency OUV, as the sandbox requires', async () => {
    const dev = h.adapterWith({ countryPath: 'dev', currency: 'OUV' });
    const ack = await dev.pushUssd(h.request());
    expect(h.mock.control.payment(ack.accepted ? ack.providerSessionId! : '')).toMatchObject({
      country: 'dev',
      currency: 'OUV',
    });
    const error = await h
      .adapterWith({ countryPath: 'dev' })
      .pushUssd(h.request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperatorRefusedError);
    expect(error).toMatchObject({ operation: 'push', httpStatus: 400 });
  });

  it('a retried init with the same order_id creates no second payment: resolved by status with the stored pay_token', async () => {
    const { req } = await h.payWith('01');
    await expect(h.adapter.pushUssd(req)).resolves.toEqual({
      accepted: true,
      providerSessionId: req.providerSessionId,
    });
    expect(h.mock.control.paymentsFor(req.partnerReference)).toBe(1);
  });

  it('a retried init without the pay_token cannot be resolved now: OperatorUnavailableError, nothing created', async () => {
    const { req } = await h.payWith('01');
    await expect(h.adapter.pushUssd({ ...req, providerSessionId: null })).rejects.toMatchObject({
      name: 'OperatorUnavailableError',
    });
    expect(h.mock.control.paymentsFor(req.partnerReference)).toBe(1);
  });

  it('an unknown order is found: false (404); no pay_token asks nothing', async () => {
    await expect(h.adapter.queryStatus({ ...h.request(), providerSessionId: 'v1unknown' })).resolves.toMatchObject({
      found: false,
      providerState: 'PENDING',
    });
    await expect(h.adapter.queryStatus(h.request())).resolves.toMatchObject({ found: false });
  });

  it('refund and payout: WebPay has no such API, refused with 501', async () => {
    await expect(h.adapter.refund()).rejects.toMatchObject({
      name: 'OperatorRefusedError',
      operation: 'refund',
      httpStatus: 501,
      detail: 'Orange WebPay has no refund API',
    });
    await expect(h.adapter.disburse()).rejects.toMatchObject({
      name: 'OperatorRefusedError',
      operation: 'disbursement',
      httpStatus: 501,
    });
  });
});
