import { OperatorUnavailableError } from '@mm/operators';
import { API_TOKEN, startHarness, type Harness } from './test-support/harness.js';
import { waitFor } from '@mm/testing';
import { lookup } from '@mm/operators/testing';

describe('operator partner API (/v1)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const postPush = (body: unknown, headers: Record<string, string> = { Authorization: `Bearer ${API_TOKEN}` }) =>
    fetch(`${h.sim.url}/v1/payments/ussd-push`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('a second push with the same reference is not a second push: same session id, pushCount stays 1', async () => {
    const req = h.request('42');
    const first = await h.adapter.pushUssd(req);
    const again = await Promise.all([h.adapter.pushUssd(req), h.adapter.pushUssd({ ...req, amount: 999 })]);
    expect(again).toEqual([first, first]);
    expect(h.sim.pushCount(req.partnerReference)).toBe(1);
    const listed = (await (await h.sandbox(`/sandbox/pushes`)).json()) as {
      pushes: { partner_reference: string; push_count: number; amount: number }[];
    };
    expect(listed.pushes.filter((p) => p.partner_reference === req.partnerReference)).toEqual([
      expect.objectContaining({ push_count: 1, amount: 1500 }),
    ]);
  });

  it('a replayed push of a decided payment still answers 201 with the same session, marked Idempotent-Replayed', async () => {
    const req = h.request('01');
    const first = await h.adapter.pushUssd(req);
    await waitFor(async () => (await h.adapter.queryStatus(req)).providerState === 'OK', { what: 'OK' });
    const res = await postPush({
      partner_reference: req.partnerReference,
      msisdn: req.msisdn,
      amount: 1500,
      currency: 'XOF',
      motif: null,
      callback_url: req.callbackUrl,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(await res.json()).toEqual({ session_id: first.accepted && first.providerSessionId, state: 'OK' });
    expect(h.sim.pushCount(req.partnerReference)).toBe(1);
  });

  it('answers 401 without the bearer token or with a wrong one, and registers nothing', async () => {
    const req = h.request('01');
    const body = {
      partner_reference: req.partnerReference,
      msisdn: req.msisdn,
      amount: 100,
      currency: 'XOF',
      motif: null,
      callback_url: req.callbackUrl,
    };
    expect((await postPush(body, {})).status).toBe(401);
    expect((await postPush(body, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await fetch(`${h.sim.url}/v1/payments/${req.partnerReference}`)).status).toBe(401);
    await expect(h.adapterWith({ apiToken: 'wrong' }).pushUssd(req)).rejects.toThrow(/401/);
    expect(h.sim.pushCount(req.partnerReference)).toBe(0);
  });

  it.each([
    ['a missing callback_url', { callback_url: undefined }],
    ['a negative amount', { amount: -5 }],
    ['an amount given as a string', { amount: '100' }],
    ['a lowercase currency', { currency: 'xof' }],
    ['a msisdn with letters', { msisdn: '+2250700abc01' }],
    ['an empty reference', { partner_reference: '' }],
  ])('answers 400 to %s', async (_what, change) => {
    const req = h.request('01');
    const body = {
      partner_reference: req.partnerReference,
      msisdn: req.msisdn,
      amount: 100,
      currency: 'XOF',
      motif: 'm',
      callback_url: req.callbackUrl,
      ...change,
    };
    const res = await postPush(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('answers 400 to a body that is not JSON', async () => {
    const res = await fetch(`${h.sim.url}/v1/payments/ussd-push`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${API_TOKEN}`, 'Content-Type': 'application/json' },
      body: '{"partner_reference":',
    });
    expect(res.status).toBe(400);
  });

  it('a 4xx reaches the adapter as a plain Error (our bug), not OperatorUnavailableError', async () => {
    const error = await h.adapter.pushUssd(h.request('01', { currency: 'xof' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toMatch(/400/);
  });

  it('an unknown reference reads as found: false, PENDING', async () => {
    await expect(h.adapter.queryStatus(lookup('never-pushed'))).resolves.toEqual({
      found: false,
      providerState: 'PENDING',
      providerTxnStatus: null,
      providerTxId: null,
      failureReason: null,
    });
  });

  it('GET /health answers ok', async () => {
    const res = await fetch(`${h.sim.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe('simulator lifecycle', () => {
  it('close() ends a hanging (08) request at once instead of waiting hangMs, and the caller sees OperatorUnavailableError', async () => {
    const h = await startHarness({ hangMs: 60_000 });
    const patient = h.adapterWith({ timeoutMs: 30_000 });
    const req = h.request('08');
    const pushing = patient.pushUssd(req).catch((e: unknown) => e);
    // Close only once the request is being held, not before it arrived.
    await waitFor(() =>
      h.events.some((e) => e.event === 'push.hanging' && e.fields.partner_reference === req.partnerReference),
    );
    const startedAt = Date.now();
    await h.close();
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(await pushing).toBeInstanceOf(OperatorUnavailableError);
  });

  it('close() clears pending scripted outcomes and callback retries', async () => {
    const h = await startHarness({ lateConfirmDelayMs: 400, receiverStatus: () => 500, callbackRetryDelaysMs: [400] });
    const failing = h.request('01');
    const late = h.request('09');
    await h.adapter.pushUssd(failing);
    await h.adapter.pushUssd(late);
    await waitFor(() => h.receiver.for(failing.partnerReference).length === 1, { what: 'first callback attempt' });
    await h.sim.close();
    await h.sim.close();
    // Not a guess: timers fire in expiry order, so one armed now for 400 ms fires after both simulator timers would have.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(h.events.filter((e) => e.event === 'push.resolved').map((e) => e.fields.partner_reference)).toEqual([
      failing.partnerReference,
    ]);
    expect(h.receiver.for(failing.partnerReference)).toHaveLength(1);
    await h.receiver.close();
  });
});
