import { waitFor, type ReceivedRequest } from '@mm/testing';
import { checkout, waveHarness } from './test-support.js';

describe("Wave webhooks from the mock, verified by the adapter's parseCallback", () => {
  let h: Awaited<ReturnType<typeof waveHarness>>;
  beforeAll(async () => {
    h = await waveHarness({ earlyWebhookLeadMs: 400 });
  });
  afterAll(async () => {
    await h.close();
  });

  /** Pushes a checkout and waits for `count` events about it. */
  async function eventsFor(ending: string, count = 1) {
    const req = checkout(ending);
    const ack = await h.adapter.pushUssd(req);
    const mine = () => h.receiver.requests.filter((r) => r.body.includes(req.partnerReference));
    const events = await waitFor(() => mine().length >= count && mine(), { what: `${count} Wave event(s)` });
    return { req, sessionId: ack.accepted ? ack.providerSessionId : null, events };
  }

  it('checkout.session.completed: a VerifiedCallback with our reference, the session id, OK / 200, keyed by the event id', async () => {
    const { req, sessionId, events } = await eventsFor('01');
    const event = JSON.parse(events[0]!.body) as { id: string; type: string };
    expect(event.type).toBe('checkout.session.completed');
    expect(events[0]!.headers['wave-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(h.parse(events[0]!)).toMatchObject({
      partnerReference: req.partnerReference,
      providerSessionId: sessionId,
      replayKey: event.id,
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^T_/),
    });
  });

  it("an amount planted on a checkout is what its signed event and its reads tell: the result reports Wave's amount, not ours", async () => {
    const req = checkout('06');
    const ack = await h.adapter.pushUssd(req);
    const sessionId = ack.accepted ? ack.providerSessionId! : '';
    const planted = await fetch(`${h.mock.url}/_mock/plant`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ reference: req.partnerReference, change: { type: 'amount', amount: 1 } }),
    });
    expect(planted.status).toBe(204);
    h.mock.control.complete(sessionId);
    const [event] = await waitFor(
      () => {
        const mine = h.receiver.requests.filter((r) => r.body.includes(req.partnerReference));
        return mine.length > 0 && mine;
      },
      { what: 'the Wave event' },
    );
    expect(JSON.parse(event!.body)).toMatchObject({
      type: 'checkout.session.completed',
      data: { amount: '1', currency: 'XOF' },
    });
    expect(h.parse(event!)).toMatchObject({
      providerState: 'OK',
      providerTxnStatus: '200',
      reported: { amount: 1, currency: 'XOF' },
    });
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: sessionId })).resolves.toMatchObject({
      providerState: 'OK',
      reported: { amount: 1, currency: 'XOF' },
    });
  });

  it('checkout.session.payment_failed is only a hint: the session stays payable, the status query (which expires it) decides', async () => {
    const { req, events } = await eventsFor('02');
    expect(JSON.parse(events[0]!.body)).toMatchObject({ type: 'checkout.session.payment_failed' });
    expect(h.parse(events[0]!)).toEqual({
      hint: true,
      partnerReference: req.partnerReference,
      replayKey: expect.stringMatching(/^AE_/),
    });
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: null })).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'insufficient-funds',
      failureCode: 'INSUFFICIENT_BALANCE',
    });
  });

  it('the same event sent twice gives the same replayKey (the bridge takes it once)', async () => {
    h.mock.control.webhookFaults(['duplicate']);
    const { events } = await eventsFor('01', 2);
    const [a, b] = events.map((e) => h.parse(e));
    expect(a).not.toBeNull();
    expect(b?.replayKey).toBe(a?.replayKey);
  });

  it('a lost event: nothing arrives, and the status query still decides the payment', async () => {
    h.mock.control.webhookFaults(['drop']);
    const req = checkout('01');
    await h.adapter.pushUssd(req);
    const result = await waitFor(
      async () => {
        const r = await h.adapter.queryStatus({ ...req, providerSessionId: null });
        return r.providerState === 'OK' && r;
      },
      { what: 'the payment' },
    );
    expect(result.found).toBe(true);
    expect(h.receiver.requests.some((r) => r.body.includes(req.partnerReference))).toBe(false);
    expect(h.mock.control.deliveries().find((d) => d.reference === req.partnerReference)?.status).toBe('dropped');
  });

  it('an event sent ahead of the session changing: verified OK while the status query still says PENDING', async () => {
    h.mock.control.webhookFaults(['early']);
    const req = checkout('01');
    await h.adapter.pushUssd(req);
    const [event] = await waitFor(() => {
      const e = h.receiver.requests.filter((r) => r.body.includes(req.partnerReference));
      return e.length > 0 && e;
    });
    expect(h.parse(event!)).toMatchObject({ providerState: 'OK' });
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: null })).resolves.toMatchObject({
      providerState: 'PENDING',
    });
  });

  it('a stale timestamp is refused (null); the same event read at its own time would have passed', async () => {
    h.mock.control.webhookFaults(['stale']);
    const { events } = await eventsFor('01');
    expect(h.parse(events[0]!)).toBeNull();
    const t = Number(/t=(\d+)/.exec(String(events[0]!.headers['wave-signature']))![1]);
    expect(h.parse(events[0]!, t * 1000)).not.toBeNull();
  });

  it('a bad signature, a tampered body, a missing header or a timestamp too far ahead: null', async () => {
    h.mock.control.webhookFaults(['badSignature']);
    const { events } = await eventsFor('01');
    expect(h.parse(events[0]!)).toBeNull();
    const good = (await eventsFor('01')).events[0]!;
    const tampered: ReceivedRequest = { ...good, body: good.body.replace('"succeeded"', '"succeeded" ') };
    expect(h.parse(tampered)).toBeNull();
    expect(h.parse({ ...good, headers: {} })).toBeNull();
    expect(h.parse(good, Date.now() - 10 * 60_000)).toBeNull();
    expect(h.parse(good)).not.toBeNull();
  });

  it('an event for a reference we never made is verified and names that reference (the bridge finds no payment)', async () => {
    const reference = h.mock.control.sendEventForUnknownReference();
    const [event] = await waitFor(() => {
      const e = h.receiver.requests.filter((r) => r.body.includes(reference));
      return e.length > 0 && e;
    });
    expect(h.parse(event!)).toMatchObject({ partnerReference: reference, providerState: 'OK' });
  });

  it('any matching v1 is enough while Wave signs with two secrets (rotation)', async () => {
    const rotating = await waveHarness({ webhookSecret: ['old-secret', 'wave_ci_WHS_mockDemoSigningSecret'] });
    try {
      const req = checkout('01');
      await rotating.adapter.pushUssd(req);
      const [event] = await waitFor(() => rotating.receiver.requests.length > 0 && rotating.receiver.requests);
      expect(String(event!.headers['wave-signature']).match(/v1=/g)).toHaveLength(2);
      expect(rotating.parse(event!)).toMatchObject({ partnerReference: req.partnerReference });
    } finally {
      await rotating.close();
    }
  });
});
