import { OperatorUnavailableError, type UssdPushRequest } from '@mm/operators';
import { rawRequest } from './test-support/faults-client.js';
import { API_TOKEN } from './test-support/harness.js';
import { simulatorWithFaults } from './test-support/with-faults.js';
import { waitFor } from '@mm/testing';

describe('partner API (/v1) faults', () => {
  const ctx = simulatorWithFaults();

  const auth = { Authorization: `Bearer ${API_TOKEN}` };
  const pushBody = (req: UssdPushRequest) => ({
    partner_reference: req.partnerReference,
    msisdn: req.msisdn,
    amount: req.amount,
    currency: req.currency,
    motif: req.motif,
    callback_url: req.callbackUrl,
  });
  const push = (req: UssdPushRequest) =>
    rawRequest(`${ctx.h.sim.url}/v1/payments/ussd-push`, 'POST', pushBody(req), auth);
  const statusOf = (reference: string) =>
    rawRequest(`${ctx.h.sim.url}/v1/payments/${reference}`, 'GET', undefined, auth);
  const logged = (event: string, reference: string) =>
    ctx.h.events.filter((e) => e.event === event && e.fields.partner_reference === reference);
  const listed = async (reference: string) => {
    const body = (await (await ctx.h.sandbox(`/sandbox/pushes`)).json()) as {
      pushes: { partner_reference: string; push_count: number; request_count: number }[];
    };
    return body.pushes.filter((p) => p.partner_reference === reference);
  };
  /** Nothing was registered for this reference: checked once the fault is off, through every window. */
  const expectNothingRegistered = async (reference: string) => {
    expect((await statusOf(reference)).status).toBe(404);
    await expect(listed(reference)).resolves.toEqual([]);
    expect(ctx.h.sim.pushRequestCount(reference)).toBe(0);
  };

  it('fail_with_5xx answers exactly 503 {"error":"unavailable"} to every call, registers nothing, refunds nothing', async () => {
    const req = ctx.h.request('01');
    await ctx.faults.set({ fail_with_5xx: true });
    const answer = await push(req);
    expect(answer.status).toBe(503);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.text).toBe('{"error":"unavailable"}');
    expect((await statusOf(req.partnerReference)).status).toBe(503);
    const refund = await rawRequest(
      `${ctx.h.sim.url}/v1/refunds`,
      'POST',
      {
        partner_reference: `rf_${req.partnerReference}`,
        original_partner_reference: req.partnerReference,
        amount: 1,
        currency: 'XOF',
      },
      auth,
    );
    expect(refund.text).toBe('{"error":"unavailable"}');
    await expect(ctx.h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);

    await ctx.faults.reset();
    await expectNothingRegistered(req.partnerReference);
    expect(
      (await rawRequest(`${ctx.h.sim.url}/v1/refunds/rf_${req.partnerReference}`, 'GET', undefined, auth)).status,
    ).toBe(404);
  });

  it('unreachable resets the connection of every call (ECONNRESET) and registers nothing', async () => {
    const req = ctx.h.request('01');
    await ctx.faults.set({ unreachable: true });
    await expect(push(req)).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(statusOf(req.partnerReference)).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(ctx.h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);

    await ctx.faults.reset();
    await expectNothingRegistered(req.partnerReference);
  });

  it('checks unreachable before fail_with_5xx, and fail_with_5xx before latency', async () => {
    await ctx.faults.set({ unreachable: true, fail_with_5xx: true, latency_ms: 600_000 });
    await expect(push(ctx.h.request('01'))).rejects.toMatchObject({ code: 'ECONNRESET' });
    await ctx.faults.set({ unreachable: false });
    // With the latency first this would not answer for 10 minutes; the abort only turns that into a clear failure.
    const res = await fetch(`${ctx.h.sim.url}/v1/payments/anything`, {
      headers: auth,
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(503);
  });

  it('latency_ms holds each call at least that long, then answers it as usual', async () => {
    await ctx.faults.set({ latency_ms: 300 });
    const req = ctx.h.request('01');
    const startedAt = performance.now();
    const answer = await push(req);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(250);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.text)).toEqual({ session_id: expect.stringMatching(/^SES-/), state: 'PENDING' });
  });

  it('a slow push whose caller hung up during the wait is still registered after the latency, and goes on to its result', async () => {
    await ctx.faults.set({ latency_ms: 1_000 });
    const req = ctx.h.request('01');
    const caller = new AbortController();
    const sentAt = Date.now();
    const pushing = rawRequest(
      `${ctx.h.sim.url}/v1/payments/ussd-push`,
      'POST',
      pushBody(req),
      auth,
      caller.signal,
    ).catch((e: unknown) => e);
    // Hang up once the simulator holds the request, not on a timer: a hang-up before it arrived proves nothing.
    await waitFor(() => logged('fault.delayed', req.partnerReference).length === 1, { what: 'the push held' });
    caller.abort();
    await expect(pushing).resolves.toMatchObject({ name: 'AbortError' });
    await waitFor(() => logged('fault.caller_gone', req.partnerReference).length === 1, {
      what: 'the hold ending with the caller gone',
    });
    await waitFor(() => ctx.h.sim.pushCount(req.partnerReference) === 1, { what: 'the abandoned push registered' });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(950);
    await ctx.faults.reset();
    await expect(listed(req.partnerReference)).resolves.toEqual([
      expect.objectContaining({ push_count: 1, request_count: 1 }),
    ]);
    await waitFor(() => ctx.h.receiver.for(req.partnerReference).length > 0, { what: 'its callback' });
    await expect(ctx.h.adapter.queryStatus(req)).resolves.toMatchObject({ found: true, providerState: 'OK' });
  });

  it('a slow push the adapter timed out on is an OperatorUnavailableError', async () => {
    await ctx.faults.set({ latency_ms: 1_000 });
    await expect(ctx.h.adapterWith({ timeoutMs: 50 }).pushUssd(ctx.h.request('01'))).rejects.toBeInstanceOf(
      OperatorUnavailableError,
    );
  });

  it('never touch /sandbox, /phone or /health', async () => {
    const req = ctx.h.request('42');
    await ctx.h.adapter.pushUssd(req);
    await ctx.faults.set({ unreachable: true, fail_with_5xx: true });
    expect((await fetch(`${ctx.h.sim.url}/health`)).status).toBe(200);
    expect((await ctx.h.sandbox(`/phone`)).status).toBe(200);
    await expect(listed(req.partnerReference)).resolves.toHaveLength(1);
    await ctx.faults.set({ unreachable: false, fail_with_5xx: false, latency_ms: 600_000 });
    // A 10-minute latency on these would fail the test through the abort, not through a timing assertion.
    const quick = { signal: AbortSignal.timeout(10_000) };
    expect((await fetch(`${ctx.h.sim.url}/health`, quick)).status).toBe(200);
    expect(
      (await ctx.h.sandbox(`/sandbox/payments/${req.partnerReference}/confirm`, { method: 'POST', ...quick })).status,
    ).toBe(200);
    await expect(ctx.faults.get()).resolves.toMatchObject({ latency_ms: 600_000 });
  });

  it('request_count counts every push request that got through, replays included; push_count only real pushes', async () => {
    const req = ctx.h.request('42');
    await ctx.faults.set({ fail_with_5xx: true });
    expect((await push(req)).status).toBe(503);
    await ctx.faults.reset();
    for (let i = 0; i < 3; i++) expect((await push(req)).status).toBe(201);
    await expect(listed(req.partnerReference)).resolves.toEqual([
      expect.objectContaining({ push_count: 1, request_count: 3 }),
    ]);
    expect(ctx.h.sim.pushRequestCount(req.partnerReference)).toBe(3);
    expect(ctx.h.sim.pushCount(req.partnerReference)).toBe(1);
  });

  describe('on disbursements', () => {
    const readDisbursement = (reference: string) =>
      rawRequest(`${ctx.h.sim.url}/v1/disbursements/${reference}`, 'GET', undefined, auth);
    const listedDisbursements = async (reference: string) => {
      const body = (await (await ctx.h.sandbox(`/sandbox/disbursements`)).json()) as {
        disbursements: { partner_reference: string }[];
      };
      return body.disbursements.filter((d) => d.partner_reference === reference);
    };
    const expectNothingPaid = async (reference: string) => {
      expect(ctx.h.sim.disbursementCount(reference)).toBe(0);
      expect((await readDisbursement(reference)).status).toBe(404);
      await expect(listedDisbursements(reference)).resolves.toEqual([]);
    };

    it('fail_with_5xx answers 503 {"error":"unavailable"}, pays nothing, and the adapter throws OperatorUnavailableError', async () => {
      const disbursement = ctx.h.disbursement('42');
      await ctx.faults.set({ fail_with_5xx: true });
      const raw = await rawRequest(
        `${ctx.h.sim.url}/v1/disbursements`,
        'POST',
        { partner_reference: disbursement.partnerReference, msisdn: disbursement.msisdn, amount: 1, currency: 'XOF' },
        auth,
      );
      expect(raw.status).toBe(503);
      expect(raw.text).toBe('{"error":"unavailable"}');
      expect((await readDisbursement(disbursement.partnerReference)).status).toBe(503);
      await expect(ctx.h.adapter.disburse(disbursement)).rejects.toBeInstanceOf(OperatorUnavailableError);

      await ctx.faults.reset();
      await expectNothingPaid(disbursement.partnerReference);
      // The retry the unavailability calls for pays, once.
      await expect(ctx.h.adapter.disburse(disbursement)).resolves.toMatchObject({ state: 'OK' });
      expect(ctx.h.sim.disbursementCount(disbursement.partnerReference)).toBe(1);
    });

    it('unreachable resets the connection (ECONNRESET), pays nothing, and the adapter throws OperatorUnavailableError', async () => {
      const disbursement = ctx.h.disbursement('42');
      await ctx.faults.set({ unreachable: true });
      await expect(
        rawRequest(
          `${ctx.h.sim.url}/v1/disbursements`,
          'POST',
          { partner_reference: disbursement.partnerReference },
          auth,
        ),
      ).rejects.toMatchObject({ code: 'ECONNRESET' });
      await expect(ctx.h.adapter.disburse(disbursement)).rejects.toBeInstanceOf(OperatorUnavailableError);

      await ctx.faults.reset();
      await expectNothingPaid(disbursement.partnerReference);
    });

    it('a slow disbursement the adapter timed out on is OperatorUnavailableError, yet is paid once; the retry replays that payment', async () => {
      await ctx.faults.set({ latency_ms: 500 });
      const disbursement = ctx.h.disbursement('42');
      await expect(ctx.h.adapterWith({ timeoutMs: 50 }).disburse(disbursement)).rejects.toBeInstanceOf(
        OperatorUnavailableError,
      );
      // The operator paid after the latency although nobody was listening: what makes the reference matter.
      await waitFor(() => ctx.h.sim.disbursementCount(disbursement.partnerReference) === 1, {
        what: 'the abandoned disbursement paid',
      });
      expect(logged('fault.caller_gone', disbursement.partnerReference)).toHaveLength(1);
      await ctx.faults.reset();

      const paid = JSON.parse((await readDisbursement(disbursement.partnerReference)).text) as {
        disbursement_id: string;
      };
      await expect(ctx.h.adapter.disburse(disbursement)).resolves.toEqual({
        state: 'OK',
        providerTxId: paid.disbursement_id,
      });
      expect(ctx.h.sim.disbursementCount(disbursement.partnerReference)).toBe(1);
      await expect(listedDisbursements(disbursement.partnerReference)).resolves.toEqual([
        expect.objectContaining({ disbursement_count: 1 }),
      ]);
    });
  });
});
