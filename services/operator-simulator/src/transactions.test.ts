import type { OperatorRecord } from '@mm/domain';
import { OperatorRefusedError, type OperatorRecordsPage } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { plant, statementOf, today } from '@mm/fake-operator/statement-client';
import { API_TOKEN, SANDBOX_TOKEN, startHarness, type Harness } from './test-support/harness.js';

const sandboxAuth = { Authorization: `Bearer ${SANDBOX_TOKEN}` };

/** Every page of the day, as the reconciliation runner reads them. */
async function allRecords(h: Harness, date = today()): Promise<{ records: OperatorRecord[]; pages: number[] }> {
  const records: OperatorRecord[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const page: OperatorRecordsPage = await h.adapter.listRecords(date, cursor);
    records.push(...page.records);
    pages.push(page.records.length);
    cursor = page.next;
  } while (cursor !== null);
  return { records, pages };
}

/** A few milliseconds apart: the list orders by creation time, and movements made within one are in no set order. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

/** The day's movements: cash-ins OK, canceled and refused at once, a refund, a disbursement failed and one paid. */
async function aDay(h: Harness) {
  const ok = h.request('01');
  const canceled = h.request('02');
  const rejected = h.request('07');
  for (const req of [ok, canceled, rejected]) {
    await h.adapter.pushUssd(req);
    await tick();
  }
  await waitFor(
    async () =>
      (await h.adapter.queryStatus(ok)).providerState === 'OK' &&
      (await h.adapter.queryStatus(canceled)).providerState === 'canceled',
    { what: 'both decided' },
  );
  const refund = {
    partnerReference: `rf_${ok.partnerReference}`,
    originalPartnerReference: ok.partnerReference,
    amount: 500,
    currency: 'XOF',
  };
  await h.adapter.refund(refund);
  await tick();
  const unpaid = h.disbursement('11');
  const payout = h.disbursement('01');
  await h.adapter.disburse(unpaid);
  await tick();
  await h.adapter.disburse(payout);
  return { ok, canceled, rejected, refund, unpaid, payout };
}

describe("simulator: GET /v1/transactions and the adapter's listRecords", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ transactionsPageSize: 2 });
  });
  afterAll(async () => {
    await h.close();
  });

  it("lists the day's cash-ins, refunds and disbursements by creation time, two a page, each once, mapped onto one vocabulary", async () => {
    const day = await aDay(h);
    const { records, pages } = await allRecords(h);
    expect(pages).toEqual([2, 2, 2]);
    expect(records).toEqual([
      {
        kind: 'CASHIN',
        reference: day.ok.partnerReference,
        operatorTxId: expect.stringMatching(/^MP\d+$/),
        amount: 1500,
        currency: 'XOF',
        outcome: 'SUCCESS',
        countryCode: 'CI',
      },
      {
        kind: 'CASHIN',
        reference: day.canceled.partnerReference,
        operatorTxId: null,
        amount: 1500,
        currency: 'XOF',
        outcome: 'FAILED',
        countryCode: 'CI',
      },
      {
        kind: 'CASHIN',
        reference: day.rejected.partnerReference,
        operatorTxId: null,
        amount: 1500,
        currency: 'XOF',
        outcome: 'FAILED',
        countryCode: 'CI',
      },
      {
        kind: 'REFUND',
        reference: day.refund.partnerReference,
        operatorTxId: expect.stringMatching(/^RF\d+$/),
        amount: 500,
        currency: 'XOF',
        outcome: 'SUCCESS',
        countryCode: 'CI',
      },
      {
        kind: 'PAYOUT',
        reference: day.unpaid.partnerReference,
        operatorTxId: null,
        amount: 2500,
        currency: 'XOF',
        outcome: 'FAILED',
        countryCode: 'CI',
      },
      {
        kind: 'PAYOUT',
        reference: day.payout.partnerReference,
        operatorTxId: expect.stringMatching(/^DB\d+$/),
        amount: 2500,
        currency: 'XOF',
        outcome: 'SUCCESS',
        countryCode: 'CI',
      },
    ]);
    expect((await allRecords(h, '2001-01-01')).records).toEqual([]);

    // The wire: the simulator's own states, the refund's original, an opaque cursor.
    const res = await fetch(`${h.sim.url}/v1/transactions?date=${today()}`, {
      headers: { Authorization: `Bearer ${API_TOKEN}` },
    });
    const body = (await res.json()) as { date: string; items: Record<string, unknown>[]; next: string };
    expect(body).toEqual({
      date: today(),
      items: [
        {
          kind: 'CASHIN',
          partner_reference: day.ok.partnerReference,
          id: expect.any(String),
          amount: 1500,
          currency: 'XOF',
          status: 'OK',
          created_at: expect.stringMatching(/Z$/),
          msisdn: expect.stringMatching(/^\+225/),
        },
        {
          kind: 'CASHIN',
          partner_reference: day.canceled.partnerReference,
          id: null,
          amount: 1500,
          currency: 'XOF',
          status: 'canceled',
          created_at: expect.any(String),
          msisdn: expect.stringMatching(/^\+225/),
        },
      ],
      next: expect.any(String),
    });
    const second = (await (
      await fetch(`${h.sim.url}/v1/transactions?date=${today()}&after=${body.next}`, {
        headers: { Authorization: `Bearer ${API_TOKEN}` },
      })
    ).json()) as typeof body;
    expect(second.items.map((i) => i.status)).toEqual(['KO', 'OK']);
    expect(second.items[1]).toMatchObject({ kind: 'REFUND', original_partner_reference: day.ok.partnerReference });
  });

  it('a movement made while the day is read comes on a later page, never twice', async () => {
    const { records: before } = await allRecords(h);
    const first = await h.adapter.listRecords(today(), null);
    const late = h.disbursement('01');
    await h.adapter.disburse(late);
    const rest: OperatorRecord[] = [];
    for (let cursor = first.next; cursor !== null;) {
      const page: OperatorRecordsPage = await h.adapter.listRecords(today(), cursor);
      rest.push(...page.records);
      cursor = page.next;
    }
    expect([...first.records, ...rest]).toEqual([
      ...before,
      expect.objectContaining({ kind: 'PAYOUT', reference: late.partnerReference }),
    ]);
  });

  it("needs the operator's token, a day and a cursor of that day", async () => {
    expect((await fetch(`${h.sim.url}/v1/transactions?date=${today()}`)).status).toBe(401);
    const bad = await fetch(`${h.sim.url}/v1/transactions?date=2026-1-1`, {
      headers: { Authorization: `Bearer ${API_TOKEN}` },
    });
    expect(bad.status).toBe(400);
    await expect(h.adapter.listRecords(today(), 'not-a-cursor')).rejects.toBeInstanceOf(OperatorRefusedError);
    const { next } = await h.adapter.listRecords(today(), null);
    await expect(h.adapter.listRecords('2001-01-01', next)).rejects.toMatchObject({
      operation: 'records',
      httpStatus: 400,
    });
  });
});

describe('simulator: the sandbox statement and planted differences', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  const control = () => `${h.sim.url}/sandbox`;

  it("a planted difference is the operator's word in its list, its statement and its status reads alike", async () => {
    const day = await aDay(h);
    expect(await plant(control(), day.ok.partnerReference, { type: 'status', status: 'FAILED' }, sandboxAuth)).toBe(
      204,
    );
    expect(await plant(control(), day.refund.partnerReference, { type: 'amount', amount: 450 }, sandboxAuth)).toBe(204);
    expect(await plant(control(), day.payout.partnerReference, { type: 'drop' }, sandboxAuth)).toBe(204);
    expect(
      await plant(control(), day.canceled.partnerReference, { type: 'status', status: 'SUCCESS' }, sandboxAuth),
    ).toBe(204);
    expect(
      await plant(
        control(),
        'SIM-THEIRS-1',
        { type: 'unknown', kind: 'REFUND', amount: 300, currency: 'XOF', operator_tx_id: 'RF999' },
        sandboxAuth,
      ),
    ).toBe(204);

    const { records } = await allRecords(h);
    const of = (reference: string) => records.find((r) => r.reference === reference);
    expect(of(day.ok.partnerReference)).toMatchObject({ outcome: 'FAILED', operatorTxId: null });
    expect(of(day.refund.partnerReference)).toMatchObject({ amount: 450, outcome: 'SUCCESS' });
    expect(of(day.payout.partnerReference)).toBeUndefined();
    expect(of(day.canceled.partnerReference)).toMatchObject({
      outcome: 'SUCCESS',
      operatorTxId: expect.stringMatching(/^PL/),
    });
    expect(of('SIM-THEIRS-1')).toEqual({
      kind: 'REFUND',
      reference: 'SIM-THEIRS-1',
      operatorTxId: 'RF999',
      amount: 300,
      currency: 'XOF',
      outcome: 'SUCCESS',
    });

    await expect(h.adapter.queryStatus(day.ok)).resolves.toMatchObject({ found: true, providerState: 'KO' });
    await expect(h.adapter.queryStatus(day.canceled)).resolves.toMatchObject({
      found: true,
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: of(day.canceled.partnerReference)!.operatorTxId,
    });
    const payout = await fetch(`${h.sim.url}/v1/disbursements/${day.payout.partnerReference}`, {
      headers: { Authorization: `Bearer ${API_TOKEN}` },
    });
    expect(payout.status).toBe(404);

    const statement = await statementOf(control(), today(), sandboxAuth);
    expect(statement.status).toBe(200);
    const row = (reference: string) => statement.rows.find((r) => r.reference === reference);
    expect(row(day.ok.partnerReference)).toMatchObject({ kind: 'CASHIN', status: 'FAILED', operator_tx_id: '' });
    expect(row(day.refund.partnerReference)).toMatchObject({ kind: 'REFUND', amount: '450', status: 'SUCCESS' });
    expect(row(day.payout.partnerReference)).toBeUndefined();
    expect(row(day.unpaid.partnerReference)).toMatchObject({ kind: 'PAYOUT', amount: '2500', status: 'FAILED' });
    expect(row('SIM-THEIRS-1')).toMatchObject({ kind: 'REFUND', amount: '300', operator_tx_id: 'RF999' });
    // What the operator did is unchanged: the cash-in planted FAILED was paid, and is still refundable.
    await expect(
      h.adapter.refund({
        partnerReference: `rf2_${day.ok.partnerReference}`,
        originalPartnerReference: day.ok.partnerReference,
        amount: 100,
        currency: 'XOF',
      }),
    ).resolves.toMatchObject({ state: 'OK' });
  });

  it("the statement and the plant routes are the sandbox's: its token, not the operator's", async () => {
    expect((await statementOf(control())).status).toBe(401);
    expect((await statementOf(control(), today(), { Authorization: `Bearer ${API_TOKEN}` })).status).toBe(401);
    expect(await plant(control(), 'MM1', { type: 'drop' })).toBe(401);
    expect(await plant(control(), 'MM1', { type: 'drop' }, sandboxAuth)).toBe(204);
    expect((await statementOf(control(), 'yesterday', sandboxAuth)).status).toBe(400);
  });
});
