import { OperatorUnavailableError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { startHarness, type Harness } from './test-support/harness.js';

/**
 * Number ending 13: an operator still processing the push when asked. No answer to the push, "never
 * saw it" to the status query, then the push registered and confirmed: the late success of a payment
 * that is FAILED on the merchant service's side (decisions 13), which the service returns by a refund.
 */
describe('a push the operator registers late (number ending 13)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ hangMs: 300, lateConfirmDelayMs: 700 });
  });
  afterAll(async () => {
    await h.close();
  });

  it('hangs, is unknown to the status query, then is registered once, rings once, succeeds with a callback, and can be refunded', async () => {
    const req = h.request('13');
    const impatient = h.adapterWith({ timeoutMs: 100 });
    await expect(impatient.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(impatient.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    expect(await h.adapter.queryStatus(req)).toMatchObject({ found: false });
    expect(h.sim.pushCount(req.partnerReference)).toBe(0);

    const [callback] = await waitFor(
      () => {
        const got = h.receiver.for(req.partnerReference);
        return got.length > 0 ? got : undefined;
      },
      { what: 'the late callback', timeoutMs: 5_000 },
    );
    expect(JSON.parse(callback!.rawBody.toString('utf8'))).toMatchObject({
      partner_reference: req.partnerReference,
      state: 'OK',
      txn_status: '200',
    });
    expect(h.sim.pushCount(req.partnerReference)).toBe(1);
    expect(await h.adapter.queryStatus(req)).toMatchObject({
      found: true,
      providerState: 'OK',
      providerTxnStatus: '200',
    });
    // A push retried now finds it, as any other.
    expect(await h.adapter.pushUssd(req)).toMatchObject({ accepted: true });
    expect(h.sim.pushCount(req.partnerReference)).toBe(1);

    const refund = await h.adapter.refund({
      partnerReference: 'RF-late-13',
      originalPartnerReference: req.partnerReference,
      amount: 1500,
      currency: 'XOF',
    });
    expect(refund).toMatchObject({ state: 'OK' });
    expect(h.sim.refundCount('RF-late-13')).toBe(1);
  });
});
