import { signPayload } from '@mm/domain';
import type { ReceivedCallback } from './test-support/callback-receiver.js';
import { faultsClient } from './test-support/faults-client.js';
import { CALLBACK_SECRET, SANDBOX_TOKEN, startHarness, type Harness } from './test-support/harness.js';
import { waitFor } from '@mm/testing';
import type { CallbackBody } from './wire.js';

describe('result callback faults', () => {
  let h: Harness;
  let faults: ReturnType<typeof faultsClient>;
  // References whose receiver answers 500 to their first N attempts, whichever copy an attempt belongs to.
  const failures = new Map<string, number>();
  beforeAll(async () => {
    h = await startHarness({
      receiverStatus: (attempt, reference) => (attempt < (failures.get(reference) ?? 0) ? 500 : 200),
    });
    faults = faultsClient(h.sim.url, SANDBOX_TOKEN);
  });
  afterEach(async () => {
    await faults.reset();
  });
  afterAll(async () => {
    await h.close();
  });

  const bodyOf = (c: ReceivedCallback) => JSON.parse(c.rawBody.toString('utf8')) as CallbackBody;
  const signed = (c: ReceivedCallback) =>
    c.headers['x-operator-signature'] ===
    signPayload(CALLBACK_SECRET, c.headers['x-operator-timestamp'] as string, c.rawBody);
  const logged = (event: string, reference: string) =>
    h.events.filter((e) => e.event === event && e.fields.partner_reference === reference);

  /**
   * Before asserting that nothing (more) arrived: with faults off, a later push's callback does arrive (the
   * pipeline works and the earlier result's send is long past), then a bounded wait well past the harness's
   * 3 x 20 ms retries. Turning faults off here is safe: a result's fate is decided when the result is.
   */
  async function afterPositiveControl() {
    await faults.reset();
    const control = h.request('01');
    await h.adapter.pushUssd(control);
    await waitFor(() => h.receiver.for(control.partnerReference).length > 0, { what: 'the control push callback' });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  it('drop sends no result callback, but the result is stored: the status query tells the truth', async () => {
    await faults.set({ callbacks: 'drop' });
    const req = h.request('01');
    await h.adapter.pushUssd(req);
    await waitFor(() => logged('callback.dropped', req.partnerReference).length === 1, {
      what: 'callback.dropped logged',
    });
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
      found: true,
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^MP/),
    });
    await afterPositiveControl();
    expect(h.receiver.for(req.partnerReference)).toHaveLength(0);
  });

  it('drop leaves resend-callback working: a deliberate sandbox action, not a result', async () => {
    await faults.set({ callbacks: 'drop' });
    const req = h.request('02');
    await h.adapter.pushUssd(req);
    await waitFor(() => logged('callback.dropped', req.partnerReference).length === 1, {
      what: 'callback.dropped logged',
    });
    expect(
      (await h.sandbox(`/sandbox/payments/${req.partnerReference}/resend-callback`, { method: 'POST' })).status,
    ).toBe(202);
    const [callback] = await waitFor(
      () => h.receiver.for(req.partnerReference).length > 0 && h.receiver.for(req.partnerReference),
      { what: 'the resent callback' },
    );
    expect(bodyOf(callback!)).toMatchObject({ state: 'canceled', txn_status: '54321', failure_reason: '60019' });
  });

  it('repeat sends exactly callback_repeat signed copies of the same body', async () => {
    await faults.set({ callbacks: 'repeat' });
    const req = h.request('01');
    await h.adapter.pushUssd(req);
    await waitFor(() => h.receiver.for(req.partnerReference).length >= 5, { what: '5 copies' });
    await afterPositiveControl();
    const copies = h.receiver.for(req.partnerReference);
    expect(copies).toHaveLength(5);
    expect(new Set(copies.map((c) => c.rawBody.toString('utf8'))).size).toBe(1);
    expect(bodyOf(copies[0]!)).toMatchObject({
      partner_reference: req.partnerReference,
      state: 'OK',
      txn_status: '200',
    });
    expect(copies.every(signed)).toBe(true);
  });

  it('repeat retries each copy on its own until each is delivered', async () => {
    await faults.set({ callbacks: 'repeat', callback_repeat: 3 });
    const req = h.request('02');
    failures.set(req.partnerReference, 3);
    await h.adapter.pushUssd(req);
    await waitFor(() => logged('callback.delivered', req.partnerReference).length === 3, { what: '3 deliveries' });
    await afterPositiveControl();
    // Three failed attempts, each retried once: six attempts, three delivered, one body.
    const attempts = h.receiver.for(req.partnerReference);
    expect(attempts.map((a) => a.answered).sort()).toEqual([200, 200, 200, 500, 500, 500]);
    expect(new Set(attempts.map((a) => a.rawBody.toString('utf8'))).size).toBe(1);
    expect(logged('callback.delivered', req.partnerReference)).toHaveLength(3);
  });

  it('out-of-order delays each result by up to callback_spread_ms, then sends the stale PENDING callback after it', async () => {
    await faults.set({ callbacks: 'out-of-order', callback_spread_ms: 100 });
    const reqs = [h.request('01'), h.request('02'), h.request('05'), h.request('01')];
    await Promise.all(reqs.map((req) => h.adapter.pushUssd(req)));
    for (const req of reqs)
      await waitFor(() => h.receiver.for(req.partnerReference).length >= 2, {
        what: `2 callbacks for ${req.partnerReference}`,
      });
    await afterPositiveControl();

    for (const req of reqs) {
      const received = h.receiver.for(req.partnerReference);
      expect(received).toHaveLength(2);
      const [final, stale] = received as [ReceivedCallback, ReceivedCallback];
      const status = await h.adapter.queryStatus(req);
      expect(bodyOf(final)).toMatchObject({
        state: status.providerState,
        txn_status: status.providerTxnStatus,
        provider_tx_id: status.providerTxId ?? null,
      });
      expect(bodyOf(final).state).not.toBe('PENDING');
      // Byte for byte a result callback's shape, frozen at the push's earlier state.
      const stalePending = {
        partner_reference: req.partnerReference,
        session_id: bodyOf(final).session_id,
        provider_tx_id: null,
        state: 'PENDING',
        txn_status: null,
        failure_reason: null,
      };
      expect(stale.rawBody.toString('utf8')).toBe(JSON.stringify(stalePending));
      expect([final, stale].every(signed)).toBe(true);
    }
    const delays = reqs.flatMap((req) =>
      logged('callback.delayed', req.partnerReference).map((e) => e.fields.delay_ms as number),
    );
    expect(delays).toHaveLength(reqs.length);
    for (const delay of delays) expect(delay >= 0 && delay <= 100).toBe(true);
  });
});
