import { NoOperatorRecordError, type MovementLookup, type UssdPushRequest } from '@mm/operators';
import { plant, statementOf } from '@mm/fake-operator/statement-client';
import { startMpHarness, type MpHarness } from './harness.js';

describe("Orange mp: recordOf by the pay token's status (cash-ins only, with the amount Orange took), and the mock's statement and plants", () => {
  let h: MpHarness;
  beforeAll(async () => {
    h = await startMpHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const control = () => `${h.mock.url}/_mock`;
  const cashIn = (req: UssdPushRequest, kind: MovementLookup['kind'] = 'CASHIN'): MovementLookup => ({
    kind,
    reference: req.partnerReference,
    payment: { ...req, providerTxId: null },
    amount: req.amount,
    currency: req.currency,
  });
  const paid = async (suffix: string) => {
    const { req } = await h.pay(h.request(suffix));
    await h.settled(req);
    return req;
  };

  it("a paid pay is a SUCCESS with Orange's txnid and amount; a cancelled one FAILED; none without a pay token", async () => {
    const ok = await paid('01');
    const cancelled = await paid('05');
    const txnid = h.mock.control.payment(ok.providerSessionId!)!.txnid;
    await expect(h.adapter.recordOf(cashIn(ok))).resolves.toEqual({
      kind: 'CASHIN',
      reference: ok.partnerReference,
      operatorTxId: txnid,
      amount: ok.amount,
      currency: 'XAF',
      outcome: 'SUCCESS',
    });
    await expect(h.adapter.recordOf(cashIn(cancelled))).resolves.toMatchObject({
      outcome: 'FAILED',
      operatorTxId: null,
    });
    await expect(h.adapter.recordOf(cashIn(h.request('01')))).resolves.toBeNull();
  });

  it('refunds and payouts: mp has no API for them, so no record can be asked for', async () => {
    const ok = await paid('01');
    await expect(h.adapter.recordOf(cashIn(ok, 'REFUND'))).rejects.toBeInstanceOf(NoOperatorRecordError);
    await expect(h.adapter.recordOf(cashIn(ok, 'PAYOUT'))).rejects.toMatchObject({
      name: 'NoOperatorRecordError',
      kind: 'PAYOUT',
    });
  });

  it('a planted amount, status or drop is seen by the statement, recordOf and the status query alike', async () => {
    const amount = await paid('01');
    const flipped = await paid('01');
    const dropped = await paid('01');
    expect(await plant(control(), amount.partnerReference, { type: 'amount', amount: 900 })).toBe(204);
    expect(await plant(control(), flipped.partnerReference, { type: 'status', status: 'FAILED' })).toBe(204);
    expect(await plant(control(), dropped.partnerReference, { type: 'drop' })).toBe(204);
    expect(
      await plant(control(), 'OM-THEIRS-1', { type: 'unknown', kind: 'CASHIN', amount: 5000, currency: 'XAF' }),
    ).toBe(204);

    await expect(h.adapter.recordOf(cashIn(amount))).resolves.toMatchObject({ amount: 900, outcome: 'SUCCESS' });
    await expect(h.adapter.recordOf(cashIn(flipped))).resolves.toMatchObject({ outcome: 'FAILED' });
    await expect(h.adapter.queryStatus(flipped)).resolves.toMatchObject({
      found: true,
      providerState: 'canceled',
      providerTxnStatus: 'FAILED',
    });
    await expect(h.adapter.recordOf(cashIn(dropped))).resolves.toBeNull();
    await expect(h.adapter.queryStatus(dropped)).resolves.toMatchObject({ found: false });

    const { rows } = await statementOf(control());
    const row = (ref: string) => rows.find((r) => r.reference === ref);
    expect(row(amount.partnerReference)).toMatchObject({ amount: '900', currency: 'XAF', status: 'SUCCESS' });
    expect(row(flipped.partnerReference)).toMatchObject({ status: 'FAILED' });
    expect(row(dropped.partnerReference)).toBeUndefined();
    expect(row('OM-THEIRS-1')).toMatchObject({
      kind: 'CASHIN',
      amount: '5000',
      status: 'SUCCESS',
      operator_tx_id: expect.stringMatching(/^PL/),
    });
  });
});
