import {
  OperatorPendingError,
  OperatorRefusedError,
  OperatorUnavailableError,
  type OperatorRecordsPage,
} from '@mm/operators';
import { waitFor } from '@mm/testing';
import { plant, statementOf, today } from '@mm/fake-operator/statement-client';
import { checkout, waveHarness } from './test-support.js';
import { DEMO_WAVE_API_KEY } from './wave-mock.js';

type Harness = Awaited<ReturnType<typeof waveHarness>>;

/** A checkout paid by a number ending in `ending` (01 succeeds), as the bridge would store it. */
async function pay(h: Harness, ending = '01', amount = 1000) {
  const req = checkout(ending, amount);
  const ack = await h.adapter.pushUssd(req);
  const sessionId = ack.accepted ? ack.providerSessionId! : '';
  if (ending === '01')
    await waitFor(() => h.mock.control.session(sessionId)?.payment_status === 'succeeded', { what: 'the payment' });
  return { ...req, providerSessionId: sessionId };
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
const listed = async (h: Harness, query: string) => {
  const res = await fetch(`${h.mock.url}/v1/transactions?${query}`, {
    headers: { Authorization: `Bearer ${DEMO_WAVE_API_KEY}` },
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { items: Record<string, unknown>[] },
  };
};

describe("Wave: listRecords reads GET /v1/transactions (the executed transactions of a day), and the mock's statement and plants", () => {
  it("lists the day's checkout, its refund and a payout in Wave's shape; a failed or open checkout is not there", async () => {
    const h = await waveHarness();
    try {
      const paid = await pay(h, '01');
      await pay(h, '02'); // a failed attempt: the session stays open, nothing moved
      await pay(h, '06'); // never paid
      await h.adapter.refund({
        partnerReference: `${paid.partnerReference}-r`,
        originalPartnerReference: paid.partnerReference,
        amount: 1000,
        currency: 'XOF',
        original: { ...paid, providerTxId: null },
      });
      const payout = {
        partnerReference: `wave-co-${Date.now()}`,
        msisdn: '+2250700000001',
        amount: 2500,
        currency: 'XOF',
        reason: 'Payout 7',
      };
      await decided(() => h.adapter.disburse(payout));
      const transactionId = h.mock.control.session(paid.providerSessionId)!.transaction_id as string;

      const { status, body } = await listed(h, `date=${today()}`);
      expect(status).toBe(200);
      expect(body.page_info).toEqual({ start_cursor: null, end_cursor: expect.any(String), has_next_page: false });
      expect(body.date).toBe(today());
      expect(body.items).toEqual([
        expect.objectContaining({
          transaction_id: transactionId,
          transaction_type: 'api_checkout',
          amount: '990',
          fee: '10',
          balance: '1000990',
          currency: 'XOF',
          is_reversal: false,
          client_reference: paid.partnerReference,
          checkout_api_session_id: paid.providerSessionId,
          counterparty_mobile: paid.msisdn,
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        }),
        expect.objectContaining({
          transaction_type: 'api_checkout_refund',
          amount: '-990',
          fee: '-10',
          balance: '1000000',
          is_reversal: true,
          checkout_api_session_id: paid.providerSessionId,
          transaction_id: expect.stringMatching(/^T_/),
        }),
        expect.objectContaining({
          transaction_type: 'api_payout',
          amount: '-2525',
          fee: '25',
          balance: '997475',
          client_reference: payout.partnerReference,
          transaction_id: expect.stringMatching(/^T_/),
        }),
      ]);

      await expect(h.adapter.listRecords(today(), null)).resolves.toEqual({
        records: [
          {
            kind: 'CASHIN',
            reference: paid.partnerReference,
            operatorTxId: transactionId,
            amount: 1000,
            currency: 'XOF',
            outcome: 'SUCCESS',
          },
          {
            kind: 'REFUND',
            reference: null,
            operatorTxId: paid.providerSessionId,
            amount: 1000,
            currency: 'XOF',
            outcome: 'SUCCESS',
          },
          {
            kind: 'PAYOUT',
            reference: payout.partnerReference,
            operatorTxId: expect.stringMatching(/^T_/),
            amount: 2500,
            currency: 'XOF',
            outcome: 'SUCCESS',
            countryCode: 'CI',
          },
        ],
        next: null,
      });
      await expect(h.adapter.listRecords('2001-01-01', null)).resolves.toEqual({ records: [], next: null });
    } finally {
      await h.close();
    }
  });

  it("pages with Wave's cursor: every transaction once, in order, next null on the last page", async () => {
    const h = await waveHarness({ transactionsPageSize: 2 });
    try {
      const refs: string[] = [];
      for (let i = 0; i < 5; i++) refs.push((await pay(h, '01', 1000 + i)).partnerReference);
      const seen: (string | null)[] = [];
      const pages: number[] = [];
      let cursor: string | null = null;
      do {
        const page: OperatorRecordsPage = await h.adapter.listRecords(today(), cursor);
        seen.push(...page.records.map((r) => r.reference));
        pages.push(page.records.length);
        cursor = page.next;
      } while (cursor !== null);
      expect(seen).toEqual(refs);
      expect(pages).toEqual([2, 2, 1]);
      const second = await listed(h, `date=${today()}&after=${(await h.adapter.listRecords(today(), null)).next}`);
      expect(second.body.page_info).toMatchObject({ start_cursor: expect.any(String), has_next_page: true });
    } finally {
      await h.close();
    }
  });

  it("a planted difference is Wave's word in its list, its statement and its session reads alike", async () => {
    const h = await waveHarness();
    try {
      const amount = await pay(h, '01');
      const flipped = await pay(h, '01');
      const dropped = await pay(h, '01');
      const refunded = await pay(h, '01');
      await h.adapter.refund({
        partnerReference: `${refunded.partnerReference}-r`,
        originalPartnerReference: refunded.partnerReference,
        amount: 1000,
        currency: 'XOF',
        original: { ...refunded, providerTxId: null },
      });
      const control = `${h.mock.url}/_mock`;
      expect(await plant(control, amount.partnerReference, { type: 'amount', amount: 1100 })).toBe(204);
      expect(await plant(control, flipped.partnerReference, { type: 'status', status: 'FAILED' })).toBe(204);
      expect(await plant(control, dropped.partnerReference, { type: 'drop' })).toBe(204);
      // Wave's refund carries no reference of ours: it is named by the session it gave back.
      expect(await plant(control, refunded.providerSessionId, { type: 'drop' })).toBe(204);
      expect(
        await plant(control, 'WAVE-THEIRS-1', {
          type: 'unknown',
          kind: 'PAYOUT',
          amount: 3000,
          currency: 'XOF',
          operator_tx_id: 'T_THEIRS',
        }),
      ).toBe(204);

      const { records } = await h.adapter.listRecords(today(), null);
      const of = (reference: string | null, kind = 'CASHIN') =>
        records.filter((r) => r.reference === reference && r.kind === kind);
      expect(of(amount.partnerReference)).toEqual([expect.objectContaining({ amount: 1100, outcome: 'SUCCESS' })]);
      expect(of(flipped.partnerReference)).toEqual([]);
      expect(of(dropped.partnerReference)).toEqual([]);
      expect(of(refunded.partnerReference)).toEqual([expect.objectContaining({ outcome: 'SUCCESS' })]);
      expect(records.filter((r) => r.kind === 'REFUND')).toEqual([]);
      expect(of('WAVE-THEIRS-1', 'PAYOUT')).toEqual([
        {
          kind: 'PAYOUT',
          reference: 'WAVE-THEIRS-1',
          operatorTxId: 'T_THEIRS',
          amount: 3000,
          currency: 'XOF',
          outcome: 'SUCCESS',
        },
      ]);

      await expect(h.adapter.queryStatus(flipped)).resolves.toMatchObject({
        found: true,
        providerState: 'canceled',
        providerTxnStatus: 'cancelled',
      });
      await expect(h.adapter.queryStatus(dropped)).resolves.toMatchObject({ found: false });
      await expect(h.adapter.queryStatus({ ...dropped, providerSessionId: null })).resolves.toMatchObject({
        found: false,
      });
      const session = await fetch(`${h.mock.url}/v1/checkout/sessions/${amount.providerSessionId}`, {
        headers: { Authorization: `Bearer ${DEMO_WAVE_API_KEY}` },
      });
      expect(await session.json()).toMatchObject({ amount: '1100', payment_status: 'succeeded' });

      const { rows } = await statementOf(control);
      const row = (reference: string) => rows.find((r) => r.reference === reference);
      expect(row(amount.partnerReference)).toMatchObject({ kind: 'CASHIN', amount: '1100', status: 'SUCCESS' });
      expect(row(flipped.partnerReference)).toMatchObject({ status: 'FAILED', operator_tx_id: '' });
      expect(row(dropped.partnerReference)).toBeUndefined();
      expect(rows.filter((r) => r.kind === 'REFUND')).toEqual([]);
      expect(row('WAVE-THEIRS-1')).toMatchObject({ kind: 'PAYOUT', amount: '3000', operator_tx_id: 'T_THEIRS' });
    } finally {
      await h.close();
    }
  });

  it('the statement keeps what the list leaves out (a checkout still open is PENDING, a refund is named by its session)', async () => {
    const h = await waveHarness();
    try {
      const open = await pay(h, '06');
      const paid = await pay(h, '01');
      await h.adapter.refund({
        partnerReference: `${paid.partnerReference}-r`,
        originalPartnerReference: paid.partnerReference,
        amount: 1000,
        currency: 'XOF',
        original: { ...paid, providerTxId: null },
      });
      const { rows } = await statementOf(`${h.mock.url}/_mock`);
      expect(rows.find((r) => r.reference === open.partnerReference)).toMatchObject({
        kind: 'CASHIN',
        status: 'PENDING',
        operator_tx_id: '',
      });
      expect(rows.find((r) => r.kind === 'REFUND')).toMatchObject({
        reference: '',
        operator_tx_id: paid.providerSessionId,
        amount: '1000',
        status: 'SUCCESS',
      });
    } finally {
      await h.close();
    }
  });

  it('refuses a bad day or cursor (a refusal of the request) and answers a 5xx as unavailable', async () => {
    const h = await waveHarness();
    try {
      expect((await listed(h, 'date=2026-02-30')).body).toMatchObject({ code: 'request-validation-error' });
      await expect(h.adapter.listRecords('2026-02-30', null)).rejects.toMatchObject({
        name: 'OperatorRefusedError',
        operation: 'records',
        httpStatus: 400,
      });
      await expect(h.adapter.listRecords(today(), 'bogus')).rejects.toBeInstanceOf(OperatorRefusedError);
      h.mock.control.fault('listTransactions', { status: 503 });
      await expect(h.adapter.listRecords(today(), null)).rejects.toBeInstanceOf(OperatorUnavailableError);
      // Without a date Wave lists today's.
      expect((await listed(h, '')).body.date).toBe(today());
    } finally {
      await h.close();
    }
  });
});
