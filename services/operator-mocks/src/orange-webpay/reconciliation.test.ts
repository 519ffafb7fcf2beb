import { NoOperatorRecordError, type MovementLookup, type UssdPushRequest } from '@mm/operators';
import { plant, statementOf } from '@mm/fake-operator/statement-client';
import { startWebpayHarness, type WebpayHarness } from './harness.js';

describe("Orange WebPay: recordOf by the status query (cash-ins only, the amount unproven), and the mock's statement and plants", () => {
  let h: WebpayHarness;
  beforeAll(async () => {
    h = await startWebpayHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const control = () => `${h.mock.url}/_mock`;
  const cashIn = (
    req: UssdPushRequest & { providerSessionId?: string | null },
    kind: MovementLookup['kind'] = 'CASHIN',
  ): MovementLookup => ({
    kind,
    reference: req.partnerReference,
    payment: { ...req, providerTxId: null },
    amount: req.amount,
    currency: req.currency,
  });
  const paid = async (suffix: string) => {
    const { req } = await h.payWith(suffix);
    await h.settled(req);
    return req;
  };

  it("a paid web payment is a SUCCESS with Orange's txnid and our own amount; a failed one FAILED; one never initiated null", async () => {
    const ok = await paid('01');
    const failed = await paid('02');
    const txnid = h.mock.control.payment(ok.providerSessionId!)!.txnid;
    await expect(h.adapter.recordOf(cashIn(ok))).resolves.toEqual({
      kind: 'CASHIN',
      reference: ok.partnerReference,
      operatorTxId: txnid,
      amount: 1500,
      currency: 'XOF',
      outcome: 'SUCCESS',
    });
    await expect(h.adapter.recordOf(cashIn(failed))).resolves.toMatchObject({ outcome: 'FAILED', operatorTxId: null });
    // Without a pay token Orange never had the payment from us.
    await expect(h.adapter.recordOf(cashIn(h.request()))).resolves.toBeNull();
  });

  it('refunds and payouts: WebPay has no API for them, so no record can be asked for', async () => {
    const ok = await paid('01');
    for (const kind of ['REFUND', 'PAYOUT'] as const) {
      const error = await h.adapter.recordOf(cashIn(ok, kind)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NoOperatorRecordError);
      expect(error).toMatchObject({
        operator: 'orange-webpay',
        kind,
        message: expect.stringContaining('no refund or payout API'),
      });
    }
  });

  it('a planted status or drop is seen by the statement and the status query alike; a planted amount by the statement only', async () => {
    const flipped = await paid('01');
    const amount = await paid('01');
    const dropped = await paid('01');
    const pending = (await h.payWith('06')).req;
    expect(await plant(control(), flipped.partnerReference, { type: 'status', status: 'FAILED' })).toBe(204);
    expect(await plant(control(), amount.partnerReference, { type: 'amount', amount: 1400 })).toBe(204);
    expect(await plant(control(), dropped.partnerReference, { type: 'drop' })).toBe(204);
    expect(await plant(control(), pending.partnerReference, { type: 'status', status: 'SUCCESS' })).toBe(204);

    await expect(h.adapter.recordOf(cashIn(flipped))).resolves.toMatchObject({ outcome: 'FAILED' });
    await expect(h.adapter.queryStatus(flipped)).resolves.toMatchObject({ found: true, providerState: 'canceled' });
    await expect(h.adapter.recordOf(cashIn(dropped))).resolves.toBeNull();
    await expect(h.adapter.recordOf(cashIn(pending))).resolves.toMatchObject({
      outcome: 'SUCCESS',
      operatorTxId: expect.any(String),
    });
    // transactionstatus names no amount: recordOf cannot see the difference...
    await expect(h.adapter.recordOf(cashIn(amount))).resolves.toMatchObject({ amount: 1500, outcome: 'SUCCESS' });

    const { rows } = await statementOf(control());
    const row = (ref: string) => rows.find((r) => r.reference === ref);
    // ...which only the statement shows.
    expect(row(amount.partnerReference)).toMatchObject({
      kind: 'CASHIN',
      amount: '1400',
      currency: 'XOF',
      status: 'SUCCESS',
    });
    expect(row(flipped.partnerReference)).toMatchObject({ status: 'FAILED', operator_tx_id: '' });
    expect(row(pending.partnerReference)).toMatchObject({ status: 'SUCCESS' });
    expect(row(dropped.partnerReference)).toBeUndefined();
  });
});
