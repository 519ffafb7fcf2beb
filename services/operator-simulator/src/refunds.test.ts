import { randomUUID } from 'node:crypto';
import { OperatorUnavailableError, type RefundRequest, type UssdPushRequest } from '@mm/operators';
import { API_TOKEN, startHarness, type Harness } from './test-support/harness.js';
import { waitFor } from '@mm/testing';

describe('refunds (POST /v1/refunds), driven through SimulatorOperatorAdapter', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const auth = { Authorization: `Bearer ${API_TOKEN}` };
  const postRefund = (body: unknown, headers: Record<string, string> = auth) =>
    fetch(`${h.sim.url}/v1/refunds`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const wireBody = (r: RefundRequest) => ({
    partner_reference: r.partnerReference,
    original_partner_reference: r.originalPartnerReference,
    amount: r.amount,
    currency: r.currency,
  });

  /** A cash-in from a number ending `suffix`, pushed and (for scripted numbers) waited on until it is OK. */
  async function confirmedCashIn(suffix: string, overrides: Partial<UssdPushRequest> = {}): Promise<UssdPushRequest> {
    const req = h.request(suffix, overrides);
    await h.adapter.pushUssd(req);
    await waitFor(async () => (await h.adapter.queryStatus(req)).providerState === 'OK', {
      what: `${req.partnerReference} OK`,
    });
    return req;
  }
  const refundOf = (original: UssdPushRequest, overrides: Partial<RefundRequest> = {}): RefundRequest => ({
    partnerReference: `rf_${randomUUID()}`,
    originalPartnerReference: original.partnerReference,
    amount: original.amount,
    currency: original.currency,
    ...overrides,
  });
  async function listed(reference: string) {
    const body = (await (await h.sandbox(`/sandbox/refunds`)).json()) as { refunds: { partner_reference: string }[] };
    return body.refunds.filter((r) => r.partner_reference === reference);
  }

  it('a refund of a confirmed 01 cash-in is OK with an RF refund id, readable again by GET /v1/refunds/:reference', async () => {
    const original = await confirmedCashIn('01');
    const refund = refundOf(original);
    const result = await h.adapter.refund(refund);
    expect(result).toEqual({ state: 'OK', providerRefundId: expect.stringMatching(/^RF\d+$/) });
    expect(h.sim.refundCount(refund.partnerReference)).toBe(1);

    const res = await fetch(`${h.sim.url}/v1/refunds/${encodeURIComponent(refund.partnerReference)}`, {
      headers: auth,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ state: 'OK', refund_id: result.state === 'OK' && result.providerRefundId });
    expect(await listed(refund.partnerReference)).toEqual([
      expect.objectContaining({
        original_partner_reference: original.partnerReference,
        amount: 1500,
        status: 200,
        answer: { state: 'OK', refund_id: expect.any(String) },
        refund_count: 1,
        original_refunded_amount: 1500,
      }),
    ]);
  });

  it('a repeated refund with the same reference answers the same and refunds once, even concurrent or with other fields', async () => {
    const original = await confirmedCashIn('01');
    const refund = refundOf(original, { amount: 600 });
    const answers = await Promise.all([
      h.adapter.refund(refund),
      h.adapter.refund(refund),
      h.adapter.refund({ ...refund, amount: 900 }),
    ]);
    expect(answers[0]).toMatchObject({ state: 'OK' });
    expect(answers).toEqual([answers[0], answers[0], answers[0]]);

    const raw = await postRefund(wireBody(refund));
    expect(raw.status).toBe(200);
    expect(raw.headers.get('idempotent-replayed')).toBe('true');
    expect(await raw.json()).toEqual({
      state: 'OK',
      refund_id: answers[0]!.state === 'OK' && answers[0]!.providerRefundId,
    });

    expect(h.sim.refundCount(refund.partnerReference)).toBe(1);
    expect(await listed(refund.partnerReference)).toEqual([
      expect.objectContaining({ amount: 600, refund_count: 1, original_refunded_amount: 600 }),
    ]);
    // Only the one refund of 600 counts against the original: 900 more still fits in 1500.
    await expect(h.adapter.refund(refundOf(original, { amount: 900 }))).resolves.toMatchObject({ state: 'OK' });
  });

  it('partial refunds are OK up to the amount; past it AMOUNT_EXCEEDS_REFUNDABLE, and a failed one uses up nothing', async () => {
    const original = await confirmedCashIn('01');
    await expect(h.adapter.refund(refundOf(original, { amount: 500 }))).resolves.toMatchObject({ state: 'OK' });
    await expect(h.adapter.refund(refundOf(original, { amount: 1200 }))).resolves.toEqual({
      state: 'FAILED',
      reason: 'AMOUNT_EXCEEDS_REFUNDABLE',
    });
    await expect(h.adapter.refund(refundOf(original, { amount: 1000 }))).resolves.toMatchObject({ state: 'OK' });
    const past = refundOf(original, { amount: 0.01 });
    await expect(h.adapter.refund(past)).resolves.toEqual({ state: 'FAILED', reason: 'AMOUNT_EXCEEDS_REFUNDABLE' });
    expect(await listed(past.partnerReference)).toEqual([
      expect.objectContaining({
        status: 200,
        answer: { state: 'FAILED', reason: 'AMOUNT_EXCEEDS_REFUNDABLE' },
        original_refunded_amount: 1500,
      }),
    ]);
  });

  it('decimal amounts add up exactly: 0.10 + 0.20 refunds a 0.30 cash-in in full', async () => {
    const original = await confirmedCashIn('01', { amount: 0.3 });
    await expect(h.adapter.refund(refundOf(original, { amount: 0.1 }))).resolves.toMatchObject({ state: 'OK' });
    await expect(h.adapter.refund(refundOf(original, { amount: 0.2 }))).resolves.toMatchObject({ state: 'OK' });
    await expect(h.adapter.refund(refundOf(original, { amount: 0.01 }))).resolves.toEqual({
      state: 'FAILED',
      reason: 'AMOUNT_EXCEEDS_REFUNDABLE',
    });
  });

  it('number ending 10: the cash-in succeeds like 01 (callback and status), its refunds fail with REFUND_REJECTED', async () => {
    const original = h.request('10');
    await h.adapter.pushUssd(original);
    const [callback] = await waitFor(
      () => h.receiver.for(original.partnerReference).length > 0 && h.receiver.for(original.partnerReference),
      { what: 'callback' },
    );
    expect(h.adapter.parseCallback(callback!.rawBody, callback!.headers, Date.now())).toMatchObject({
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^MP\d+$/),
    });
    await expect(h.adapter.queryStatus(original)).resolves.toMatchObject({ found: true, providerState: 'OK' });

    const refund = refundOf(original, { amount: 100 });
    await expect(h.adapter.refund(refund)).resolves.toEqual({ state: 'FAILED', reason: 'REFUND_REJECTED' });
    await expect(h.adapter.refund(refund)).resolves.toEqual({ state: 'FAILED', reason: 'REFUND_REJECTED' });
    expect(h.sim.refundCount(refund.partnerReference)).toBe(1);
    expect(await listed(refund.partnerReference)).toEqual([expect.objectContaining({ original_refunded_amount: 0 })]);
  });

  it('a refund of an unknown original is UNKNOWN_TRANSACTION (404 unknown_transaction on the wire)', async () => {
    const refund: RefundRequest = {
      partnerReference: `rf_${randomUUID()}`,
      originalPartnerReference: 'never-pushed',
      amount: 100,
      currency: 'XOF',
    };
    await expect(h.adapter.refund(refund)).resolves.toEqual({ state: 'FAILED', reason: 'UNKNOWN_TRANSACTION' });
    const raw = await postRefund(wireBody({ ...refund, partnerReference: `rf_${randomUUID()}` }));
    expect(raw.status).toBe(404);
    expect(await raw.json()).toEqual({ error: 'unknown_transaction' });
  });

  it.each([
    ['pending (06, never confirmed)', '06', false],
    ['canceled (05)', '05', true],
    ['rejected at push time (07)', '07', false],
  ])(
    'a refund of a %s cash-in is NOT_REFUNDABLE (409 not_refundable on the wire)',
    async (_what, suffix, waitForCallback) => {
      const original = h.request(suffix);
      await h.adapter.pushUssd(original);
      if (waitForCallback)
        await waitFor(() => h.receiver.for(original.partnerReference).length > 0, { what: 'callback' });
      await expect(h.adapter.refund(refundOf(original))).resolves.toEqual({
        state: 'FAILED',
        reason: 'NOT_REFUNDABLE',
      });
      const raw = await postRefund(wireBody(refundOf(original)));
      expect(raw.status).toBe(409);
      expect(await raw.json()).toEqual({ error: 'not_refundable' });
    },
  );

  it('a repeat answers the first answer even when the original has changed since: NOT_REFUNDABLE stays final for that reference', async () => {
    const original = h.request('42');
    await h.adapter.pushUssd(original);
    const early = refundOf(original);
    await expect(h.adapter.refund(early)).resolves.toEqual({ state: 'FAILED', reason: 'NOT_REFUNDABLE' });
    expect((await h.sandbox(`/sandbox/payments/${original.partnerReference}/confirm`, { method: 'POST' })).status).toBe(
      200,
    );

    await expect(h.adapter.refund(early)).resolves.toEqual({ state: 'FAILED', reason: 'NOT_REFUNDABLE' });
    const read = await fetch(`${h.sim.url}/v1/refunds/${early.partnerReference}`, { headers: auth });
    expect(read.status).toBe(409);
    expect(await read.json()).toEqual({ error: 'not_refundable' });
    expect(h.sim.refundCount(early.partnerReference)).toBe(1);
    await expect(h.adapter.refund(refundOf(original))).resolves.toMatchObject({ state: 'OK' });
  });

  it('an operator that does not answer the refund in time is OperatorUnavailableError; nothing is recorded, so the retry refunds once', async () => {
    const original = await confirmedCashIn('01');
    const hangPath = `/sandbox/payments/${original.partnerReference}/hang-refunds`;
    expect((await h.sandbox(hangPath, { method: 'POST' })).status).toBe(200);
    const refund = refundOf(original);

    await expect(h.adapterWith({ timeoutMs: 100 }).refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
    // A caller patient enough gets the operator's own 504 after hangMs: unavailable too.
    await expect(h.adapterWith({ timeoutMs: 3_000 }).refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
    expect(h.sim.refundCount(refund.partnerReference)).toBe(0);
    expect((await fetch(`${h.sim.url}/v1/refunds/${refund.partnerReference}`, { headers: auth })).status).toBe(404);

    expect((await h.sandbox(hangPath, { method: 'DELETE' })).status).toBe(200);
    await expect(h.adapter.refund(refund)).resolves.toMatchObject({ state: 'OK' });
    expect(h.sim.refundCount(refund.partnerReference)).toBe(1);
  });

  it('the sandbox hang hook answers 404 for an unknown original', async () => {
    expect((await h.sandbox(`/sandbox/payments/nope/hang-refunds`, { method: 'POST' })).status).toBe(404);
  });

  it.each([
    ['a missing partner_reference', { partner_reference: undefined }],
    ['an empty original_partner_reference', { original_partner_reference: '' }],
    ['a zero amount', { amount: 0 }],
    ['a negative amount', { amount: -5 }],
    ['an amount with three decimals', { amount: 1.005 }],
    ['an amount given as a string', { amount: '100' }],
    ['a lowercase currency', { currency: 'xof' }],
  ])('answers 400 invalid_request to %s, and records nothing', async (_what, change) => {
    const original = h.request('01');
    const body = {
      partner_reference: `rf_${randomUUID()}`,
      original_partner_reference: original.partnerReference,
      amount: 100,
      currency: 'XOF',
      ...change,
    };
    const res = await postRefund(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    if (typeof body.partner_reference === 'string') expect(h.sim.refundCount(body.partner_reference)).toBe(0);
  });

  it("answers 400 to a currency other than the original's, which the adapter throws as a plain Error (our bug)", async () => {
    const original = await confirmedCashIn('01');
    const refund = refundOf(original, { currency: 'XAF' });
    const error = await h.adapter.refund(refund).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toMatch(/400.*XAF/);
    expect(h.sim.refundCount(refund.partnerReference)).toBe(0);
  });

  it('answers 401 without the bearer token, to the refund and its read, and refunds nothing', async () => {
    const original = await confirmedCashIn('01');
    const refund = refundOf(original);
    expect((await postRefund(wireBody(refund), {})).status).toBe(401);
    expect((await fetch(`${h.sim.url}/v1/refunds/${refund.partnerReference}`)).status).toBe(401);
    await expect(h.adapterWith({ apiToken: 'wrong' }).refund(refund)).rejects.toThrow(/401/);
    expect(h.sim.refundCount(refund.partnerReference)).toBe(0);
  });

  it('GET /v1/refunds/:reference answers 404 not_found for a reference never refunded', async () => {
    const res = await fetch(`${h.sim.url}/v1/refunds/never-refunded`, { headers: auth });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not_found' });
  });
});
