import { signPayload } from '@mm/domain';
import { SimulatorOperatorAdapter } from '@mm/operators';
import { API_TOKEN, CALLBACK_SECRET, startHarness, type Harness } from './test-support/harness.js';
import { waitFor } from '@mm/testing';

describe('operator callbacks', () => {
  let h: Harness;
  // References whose receiver answers 500 to the first attempts: 'flaky-2' fails twice, 'down' always.
  const failures = new Map<string, number>();
  beforeAll(async () => {
    h = await startHarness({
      receiverStatus: (attempt, reference) => (attempt < (failures.get(reference) ?? 0) ? 500 : 200),
    });
  });
  afterAll(async () => {
    await h.close();
  });

  async function pushAndGetCallback(suffix = '01') {
    const req = h.request(suffix);
    await h.adapter.pushUssd(req);
    const [callback] = await waitFor(
      () => h.receiver.for(req.partnerReference).length > 0 && h.receiver.for(req.partnerReference),
      { what: 'callback' },
    );
    return { req, callback: callback! };
  }

  it('are signed over the exact body with the timestamp, and parseCallback accepts them', async () => {
    const { req, callback } = await pushAndGetCallback();
    const timestamp = callback.headers['x-operator-timestamp'] as string;
    expect(callback.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(timestamp)).toBeCloseTo(Date.now() / 1000, -1);
    expect(callback.headers['x-operator-signature']).toBe(signPayload(CALLBACK_SECRET, timestamp, callback.rawBody));
    expect(JSON.parse(callback.rawBody.toString('utf8'))).toEqual({
      partner_reference: req.partnerReference,
      session_id: expect.any(String),
      provider_tx_id: expect.any(String),
      state: 'OK',
      txn_status: '200',
      failure_reason: null,
    });
    expect(h.adapter.parseCallback(callback.rawBody, callback.headers, Date.now())).toMatchObject({
      partnerReference: req.partnerReference,
      providerState: 'OK',
    });
  });

  it('parseCallback rejects a tampered body, a wrong secret, a stale or future timestamp and missing headers', async () => {
    const { callback } = await pushAndGetCallback('02');
    const now = Number(callback.headers['x-operator-timestamp']) * 1000;
    const tampered = Buffer.from(callback.rawBody.toString('utf8').replace('"canceled"', '"OK"'));
    expect(tampered.equals(callback.rawBody)).toBe(false);
    expect(h.adapter.parseCallback(tampered, callback.headers, now)).toBeNull();

    const wrongSecret = new SimulatorOperatorAdapter({
      baseUrl: h.sim.url,
      apiToken: API_TOKEN,
      callbackSecret: 'not-the-secret',
      timeoutMs: 1_000,
    });
    expect(wrongSecret.parseCallback(callback.rawBody, callback.headers, now)).toBeNull();

    expect(h.adapter.parseCallback(callback.rawBody, callback.headers, now + 301_000)).toBeNull();
    expect(h.adapter.parseCallback(callback.rawBody, callback.headers, now - 301_000)).toBeNull();
    expect(h.adapter.parseCallback(callback.rawBody, callback.headers, now + 299_000)).not.toBeNull();

    const { ['x-operator-signature']: _omitted, ...unsigned } = callback.headers;
    expect(h.adapter.parseCallback(callback.rawBody, unsigned, now)).toBeNull();
  });

  it('are retried after a non-2xx answer until the receiver answers 2xx, with the same body and a valid signature each time', async () => {
    const req = h.request('01');
    failures.set(req.partnerReference, 2);
    await h.adapter.pushUssd(req);
    const attempts = await waitFor(
      () =>
        h.receiver.for(req.partnerReference).some((c) => c.answered === 200) && h.receiver.for(req.partnerReference),
      { what: 'a delivered callback' },
    );
    expect(attempts.map((c) => c.answered)).toEqual([500, 500, 200]);
    expect(new Set(attempts.map((c) => c.rawBody.toString('utf8'))).size).toBe(1);
    for (const attempt of attempts)
      expect(h.adapter.parseCallback(attempt.rawBody, attempt.headers, Date.now())).not.toBeNull();
    await waitFor(
      () =>
        h.events.some((e) => e.event === 'callback.delivered' && e.fields.partner_reference === req.partnerReference),
      { what: 'delivery logged' },
    );
  });

  it('are given up after the last retry delay when the receiver keeps failing', async () => {
    const req = h.request('03');
    failures.set(req.partnerReference, Number.POSITIVE_INFINITY);
    await h.adapter.pushUssd(req);
    const gaveUp = await waitFor(
      () => h.events.find((e) => e.event === 'callback.gave_up' && e.fields.partner_reference === req.partnerReference),
      { what: 'give-up log' },
    );
    expect(gaveUp.fields.attempts).toBe(4);
    expect(h.receiver.for(req.partnerReference)).toHaveLength(4);
  });

  it('are retried when the receiver cannot be reached at all', async () => {
    const req = h.request('05', { callbackUrl: 'http://127.0.0.1:1/closed-port' });
    await h.adapter.pushUssd(req);
    const gaveUp = await waitFor(
      () => h.events.find((e) => e.event === 'callback.gave_up' && e.fields.partner_reference === req.partnerReference),
      { what: 'give-up log' },
    );
    expect(gaveUp.fields).toMatchObject({ attempts: 4, last_error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('can be sent again through the sandbox (a duplicate delivery of the same result)', async () => {
    const { req, callback } = await pushAndGetCallback();
    const res = await h.sandbox(`/sandbox/payments/${req.partnerReference}/resend-callback`, { method: 'POST' });
    expect(res.status).toBe(202);
    const both = await waitFor(
      () => h.receiver.for(req.partnerReference).length === 2 && h.receiver.for(req.partnerReference),
      { what: 'second callback' },
    );
    expect(both[1]!.rawBody.equals(callback.rawBody)).toBe(true);
    // The same result; signed anew (its own timestamp), so the bridge does not take it for a replay of the first.
    const { replayKey: _first, ...first } = h.adapter.parseCallback(callback.rawBody, callback.headers, Date.now())!;
    const { replayKey: _again, ...again } = h.adapter.parseCallback(both[1]!.rawBody, both[1]!.headers, Date.now())!;
    expect(again).toEqual(first);
  });

  it('cannot be re-sent before there is a result, nor for an unknown reference', async () => {
    const pending = h.request('06');
    await h.adapter.pushUssd(pending);
    expect(
      (await h.sandbox(`/sandbox/payments/${pending.partnerReference}/resend-callback`, { method: 'POST' })).status,
    ).toBe(409);
    expect((await h.sandbox(`/sandbox/payments/nope/resend-callback`, { method: 'POST' })).status).toBe(404);
  });
});
