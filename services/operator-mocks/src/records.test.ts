import { randomUUID } from 'node:crypto';
import { OperatorPendingError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { startMpHarness, type MpHarness } from './orange-mp/harness.js';
import { startMtnHarness, type MtnHarness } from './mtn-momo/test-harness.js';
import { startWebpayHarness } from './orange-webpay/harness.js';
import type { MockPaymentRecord, MockRecords } from './records.js';
import { checkout, waveHarness } from './wave/test-support.js';
import { DEMO_WAVE_API_KEY } from './wave/wave-mock.js';

/** GET /_mock/records, as a test in another process (the chaos suite) reads it. */
async function records(url: string): Promise<MockRecords> {
  const res = await fetch(`${url}/_mock/records`);
  expect(res.status).toBe(200);
  return (await res.json()) as MockRecords;
}
const paymentOf = (r: MockRecords, reference: string): MockPaymentRecord | undefined =>
  r.payments.find((p) => p.reference === reference);
/** Asks again, as the refund worker does, until the operator decides. */
const decided = <T>(call: () => Promise<T>) =>
  waitFor(
    () =>
      call().catch((e: unknown) => {
        if (e instanceof OperatorPendingError) return undefined;
        throw e;
      }),
    { what: 'a decision' },
  );

describe('MTN MoMo mock: its record by externalId over /_mock/records', () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('one request to pay per reference however often it is pushed; taken once SUCCESSFUL; a refund paid back once, named by its own reference', async () => {
    const paid = h.request('01');
    await h.adapter.pushUssd(paid);
    await h.adapter.pushUssd(paid); // a retried push: 409, adopted, nothing created
    const failed = h.request('02');
    await h.adapter.pushUssd(failed);
    await waitFor(
      async () =>
        paymentOf(await records(h.mock.url), failed.partnerReference)?.state === 'FAILED' &&
        paymentOf(await records(h.mock.url), paid.partnerReference)?.taken,
      { what: 'both decided' },
    );
    const refund = {
      partnerReference: `rf-${randomUUID()}`,
      originalPartnerReference: paid.partnerReference,
      amount: paid.amount,
      currency: paid.currency,
    };
    await expect(decided(() => h.adapter.refund(refund))).resolves.toMatchObject({ state: 'OK' });

    const r = await records(h.mock.url);
    expect(paymentOf(r, paid.partnerReference)).toEqual({
      reference: paid.partnerReference,
      created: 1,
      state: 'SUCCESSFUL',
      taken: true,
      decided: true,
      refundsPaid: 1,
    });
    expect(paymentOf(r, failed.partnerReference)).toEqual({
      reference: failed.partnerReference,
      created: 1,
      state: 'FAILED',
      taken: false,
      decided: true,
      refundsPaid: 0,
    });
    expect(r.refunds).toEqual([
      {
        reference: refund.partnerReference,
        paymentReference: paid.partnerReference,
        created: 1,
        state: 'SUCCESSFUL',
        paid: 1,
      },
    ]);
  });

  it('counts two requests to pay with the same externalId under two X-Reference-Ids: the double push a broken client would make', async () => {
    const req = h.request('06');
    await h.adapter.pushUssd(req);
    const token = await h.token('collection');
    const res = await h.raw('POST', '/collection/v1_0/requesttopay', token, 'collection', {
      headers: { 'X-Reference-Id': randomUUID() },
      body: {
        amount: '5000',
        currency: 'XOF',
        externalId: req.partnerReference,
        payer: { partyIdType: 'MSISDN', partyId: '2250500000006' },
        payerMessage: 'x',
        payeeNote: 'x',
      },
    });
    expect(res.status).toBe(202);
    expect(paymentOf(await records(h.mock.url), req.partnerReference)).toMatchObject({
      created: 2,
      state: 'PENDING',
      taken: false,
      decided: false,
    });
  });
});

describe('Orange mp mock: its record by orderId over /_mock/records', () => {
  let h: MpHarness;
  beforeAll(async () => {
    h = await startMpHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('pays taken per orderId (a token prepared but never paid with is none), the money taken once SUCCESSFULL, no refunds ever', async () => {
    await h.adapter.prepare(); // never paid with: no orderId, not in the record
    const { req } = await h.pay(h.request('01'));
    await h.adapter.pushUssd(req); // the retried push with the stored token: 417, resolved by status, nothing taken twice
    const { req: cancelled } = await h.pay(h.request('05'));
    await h.settled(req);
    await h.settled(cancelled);
    const r = await records(h.mock.url);
    expect(r.payments).toEqual([
      { reference: req.partnerReference, created: 1, state: 'SUCCESSFULL', taken: true, decided: true, refundsPaid: 0 },
      {
        reference: cancelled.partnerReference,
        created: 1,
        state: 'CANCELLED',
        taken: false,
        decided: true,
        refundsPaid: 0,
      },
    ]);
    expect(r.refunds).toEqual([]);
  });

  it('counts two pays for one orderId with two pay tokens: a push that forgot its stored token', async () => {
    const req = h.request('06');
    await h.pay(req);
    await h.pay(req);
    expect(paymentOf(await records(h.mock.url), req.partnerReference)).toMatchObject({
      created: 2,
      state: 'PENDING',
      taken: false,
      decided: false,
    });
  });
});

describe('Wave mock: its record by client_reference over /_mock/records', () => {
  it('sessions per reference (a retried push reuses the live one), taken once succeeded, a refund paid back once however often asked', async () => {
    const h = await waveHarness();
    try {
      const paid = checkout('01');
      const ack = await h.adapter.pushUssd(paid);
      await h.adapter.pushUssd(paid);
      const failed = checkout('02');
      await h.adapter.pushUssd(failed);
      await waitFor(async () => paymentOf(await records(h.mock.url), paid.partnerReference)?.taken, {
        what: 'the payment taken',
      });
      const providerSessionId = ack.accepted ? ack.providerSessionId : null;
      const refund = {
        partnerReference: `rf-${randomUUID()}`,
        originalPartnerReference: paid.partnerReference,
        amount: paid.amount,
        currency: paid.currency,
        original: { ...paid, providerSessionId, providerTxId: null },
      };
      await h.adapter.refund(refund);
      await h.adapter.refund(refund);
      const r = await records(h.mock.url);
      expect(paymentOf(r, paid.partnerReference)).toEqual({
        reference: paid.partnerReference,
        created: 1,
        state: 'complete/succeeded',
        taken: true,
        decided: true,
        refundsPaid: 1,
      });
      expect(paymentOf(r, failed.partnerReference)).toMatchObject({ created: 1, taken: false, refundsPaid: 0 });

      // Wave does not dedupe on client_reference: a second POST is a second session, and the record shows it.
      const again = await fetch(`${h.mock.url}/v1/checkout/sessions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${DEMO_WAVE_API_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          amount: '1000',
          currency: 'XOF',
          success_url: paid.returnUrl,
          error_url: paid.returnUrl,
          client_reference: failed.partnerReference,
        }),
      });
      expect(again.status).toBe(200);
      expect(paymentOf(await records(h.mock.url), failed.partnerReference)).toMatchObject({ created: 2 });
    } finally {
      await h.close();
    }
  });
});

describe('Orange WebPay mock: its record by order_id over /_mock/records', () => {
  it('one web payment per order_id, the money taken once the customer paid on the page', async () => {
    const h = await startWebpayHarness();
    try {
      const { req } = await h.payWith('01');
      await h.settled(req);
      expect((await records(h.mock.url)).payments).toEqual([
        { reference: req.partnerReference, created: 1, state: 'SUCCESS', taken: true, decided: true, refundsPaid: 0 },
      ]);
    } finally {
      await h.close();
    }
  });
});
