import { randomUUID } from 'node:crypto';
import {
  OperatorPendingError,
  OperatorUnavailableError,
  type MovementLookup,
  type UssdPushRequest,
} from '@mm/operators';
import { waitFor } from '@mm/testing';
import { plant, statementOf, today } from '@mm/fake-operator/statement-client';
import { accountCredentials, newReference, startMtnHarness, type MtnHarness } from './test-harness.js';

describe("MTN MoMo: recordOf reads each of our movements back by its status query, and the mock's statement and plants", () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => h.mock.control.reset());

  const control = () => `${h.mock.url}/_mock`;
  const cashIn = (req: UssdPushRequest): MovementLookup => ({
    kind: 'CASHIN',
    reference: req.partnerReference,
    payment: { ...h.lookup(req), providerTxId: null },
    amount: req.amount,
    currency: req.currency,
  });
  async function paid(suffix = '01'): Promise<UssdPushRequest> {
    const req = h.request(suffix);
    await h.adapter.pushUssd(req);
    await waitFor(async () => (await h.adapter.queryStatus(h.lookup(req))).providerState !== 'PENDING', {
      what: 'a decided cash-in',
    });
    return req;
  }
  const decided = <T>(call: () => Promise<T>) =>
    waitFor(
      () =>
        call().catch((e: unknown) => {
          if (e instanceof OperatorPendingError) return undefined;
          throw e;
        }),
      { what: 'a decision' },
    );

  it("a cash-in: MTN's amount, currency, outcome and financialTransactionId; a failed one FAILED; an unknown one null", async () => {
    const ok = await paid('01');
    const failed = await paid('02');
    const record = await h.adapter.recordOf!(cashIn(ok));
    expect(record).toEqual({
      kind: 'CASHIN',
      reference: ok.partnerReference,
      operatorTxId: h.record(ok.partnerReference)!.financialTransactionId,
      amount: 5000,
      currency: 'XOF',
      outcome: 'SUCCESS',
    });
    expect(record!.operatorTxId).toMatch(/^\d+$/);
    await expect(h.adapter.recordOf!(cashIn(failed))).resolves.toEqual({
      kind: 'CASHIN',
      reference: failed.partnerReference,
      operatorTxId: null,
      amount: 5000,
      currency: 'XOF',
      outcome: 'FAILED',
    });
    await expect(h.adapter.recordOf!(cashIn(h.request('01')))).resolves.toBeNull();
  });

  it("a refund and a payout by their own references (the refund's, not the cash-in's), on the Disbursement product", async () => {
    const original = await paid('01');
    const refund = {
      partnerReference: newReference(),
      originalPartnerReference: original.partnerReference,
      amount: 2000,
      currency: 'XOF',
    };
    await decided(() => h.adapter.refund(refund));
    const payout = h.payout('01');
    await decided(() => h.adapter.disburse(payout));
    const payment = { ...h.lookup(original), providerTxId: null };
    await expect(
      h.adapter.recordOf!({
        kind: 'REFUND',
        reference: refund.partnerReference,
        payment,
        amount: 2000,
        currency: 'XOF',
      }),
    ).resolves.toMatchObject({
      kind: 'REFUND',
      reference: refund.partnerReference,
      amount: 2000,
      currency: 'XOF',
      outcome: 'SUCCESS',
      operatorTxId: expect.stringMatching(/^\d+$/),
    });
    await expect(
      h.adapter.recordOf!({
        kind: 'PAYOUT',
        reference: payout.partnerReference,
        payment: { ...payment, partnerReference: payout.partnerReference },
        amount: 2500,
        currency: 'XOF',
      }),
    ).resolves.toMatchObject({ kind: 'PAYOUT', reference: payout.partnerReference, amount: 2500, outcome: 'SUCCESS' });
    // The cash-in's reference names no refund: MTN does not know one by it.
    await expect(
      h.adapter.recordOf!({
        kind: 'REFUND',
        reference: original.partnerReference,
        payment,
        amount: 2000,
        currency: 'XOF',
      }),
    ).resolves.toBeNull();
    const collectionOnly = h.adapterWith({
      credentials: accountCredentials({
        disbursementSubscriptionKey: '',
        disbursementApiUser: '',
        disbursementApiKey: '',
      }),
    });
    await expect(
      collectionOnly.recordOf!({
        kind: 'PAYOUT',
        reference: payout.partnerReference,
        payment,
        amount: 2500,
        currency: 'XOF',
      }),
    ).rejects.toThrow('no Disbursement credentials');
  });

  it("a planted difference is MTN's word everywhere: its statement, recordOf and the status query the bridge reads", async () => {
    const amount = await paid('01');
    const flipped = await paid('01');
    const dropped = await paid('01');
    const unknownRef = `THEIRS-${randomUUID()}`;
    expect(await plant(control(), amount.partnerReference, { type: 'amount', amount: 4000 })).toBe(204);
    expect(await plant(control(), flipped.partnerReference, { type: 'status', status: 'FAILED' })).toBe(204);
    expect(await plant(control(), dropped.partnerReference, { type: 'drop' })).toBe(204);
    expect(
      await plant(control(), unknownRef, {
        type: 'unknown',
        kind: 'CASHIN',
        amount: 777,
        currency: 'XOF',
        operator_tx_id: '999000111',
      }),
    ).toBe(204);

    await expect(h.adapter.recordOf!(cashIn(amount))).resolves.toMatchObject({ amount: 4000, outcome: 'SUCCESS' });
    await expect(h.adapter.recordOf!(cashIn(flipped))).resolves.toMatchObject({
      outcome: 'FAILED',
      operatorTxId: null,
    });
    await expect(h.adapter.queryStatus(h.lookup(flipped))).resolves.toMatchObject({
      found: true,
      providerState: 'KO',
      providerTxnStatus: 'INTERNAL_PROCESSING_ERROR',
    });
    await expect(h.adapter.recordOf!(cashIn(dropped))).resolves.toBeNull();
    await expect(h.adapter.queryStatus(h.lookup(dropped))).resolves.toMatchObject({ found: false });

    const { status, contentType, rows } = await statementOf(control());
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/csv/);
    const row = (reference: string) => rows.find((r) => r.reference === reference);
    expect(row(amount.partnerReference)).toMatchObject({
      kind: 'CASHIN',
      amount: '4000',
      currency: 'XOF',
      status: 'SUCCESS',
      operator_tx_id: expect.stringMatching(/^\d+$/),
    });
    expect(row(flipped.partnerReference)).toMatchObject({ status: 'FAILED', operator_tx_id: '' });
    expect(row(dropped.partnerReference)).toBeUndefined();
    expect(row(unknownRef)).toMatchObject({
      kind: 'CASHIN',
      amount: '777',
      status: 'SUCCESS',
      operator_tx_id: '999000111',
    });
    expect(row(unknownRef)!.occurred_at.slice(0, 10)).toBe(today());
    // What MTN really did is unchanged (the chaos suite's view).
    expect(h.mock.control.records().payments.find((p) => p.reference === flipped.partnerReference)).toMatchObject({
      state: 'SUCCESSFUL',
      taken: true,
    });
  });

  it("a statement lists the day's requests to pay, refunds and transfers; another day has none", async () => {
    const failed = await paid('02');
    const payout = h.payout('02');
    await decided(() => h.adapter.disburse(payout));
    const { rows } = await statementOf(control());
    expect(rows.find((r) => r.reference === failed.partnerReference)).toEqual({
      kind: 'CASHIN',
      reference: failed.partnerReference,
      operator_tx_id: '',
      amount: '5000',
      currency: 'XOF',
      status: 'FAILED',
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(rows.find((r) => r.reference === payout.partnerReference)).toMatchObject({
      kind: 'PAYOUT',
      amount: '2500',
      status: 'FAILED',
    });
    expect((await statementOf(control(), '2001-01-01')).rows).toEqual([]);
  });

  it('the control routes refuse a bad day or change; an unreachable MTN is OperatorUnavailableError', async () => {
    expect((await statementOf(control(), '2026-13-01')).status).toBe(400);
    expect(await plant(control(), 'MM1', { type: 'status', status: 'PENDING' })).toBe(400);
    expect(await plant(control(), 'MM1', { type: 'amount', amount: -5 })).toBe(400);
    expect(await plant(control(), 'MM1', { type: 'unknown', kind: 'FEE', amount: 5, currency: 'XOF' })).toBe(400);
    const req = await paid('01');
    h.mock.control.fault('requesttopay-status', { status: 503 });
    await expect(h.adapter.recordOf!(cashIn(req))).rejects.toBeInstanceOf(OperatorUnavailableError);
  });
});
