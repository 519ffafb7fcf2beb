import type { CallbackHint } from '@mm/operators';
import { waitFor, type ReceivedRequest } from '@mm/testing';
import { startMtnHarness, type MtnHarness } from './test-harness.js';

describe('MTN MoMo callbacks (unsigned, POST of the status body to X-Callback-Url): hints only', () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => h.mock.control.reset());

  const receivedFor = (reference: string) => h.receiver.requests.filter((r) => r.body.includes(reference));
  const pathOf = (url: string) => new URL(url).pathname.replace(/^\/webhooks/, '');
  /** What the bridge does: the path after its callback route, the raw bytes. */
  const parse = (r: ReceivedRequest, path: string) =>
    h.adapter.parseCallback(Buffer.from(r.body), r.headers, Date.now(), path) as CallbackHint | null;

  it('one callback per decision, to the URL of the push, unsigned: a hint naming the payment, then the status decides', async () => {
    const req = h.request('05');
    await h.adapter.pushUssd(req);
    const [received] = await waitFor(
      () => receivedFor(req.partnerReference).length === 1 && receivedFor(req.partnerReference),
      { what: 'the callback' },
    );
    expect(JSON.parse(received!.body)).toMatchObject({
      externalId: req.partnerReference,
      status: 'FAILED',
      reason: 'APPROVAL_REJECTED',
      amount: '5000',
    });
    expect(Object.keys(received!.headers).filter((k) => /signature/i.test(k))).toEqual([]);
    const hint = parse(received!, pathOf(req.callbackUrl));
    expect(hint).toEqual({ hint: true, partnerReference: req.partnerReference, replayKey: expect.any(String) });
    await expect(h.adapter.queryStatus(h.lookup(req))).resolves.toMatchObject({
      providerState: 'canceled',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  it('a lost callback (none sent): the status query alone decides', async () => {
    h.mock.control.setCallbackPlan({ copies: 0 });
    const req = h.request('01');
    await h.adapter.pushUssd(req);
    await waitFor(async () => (await h.adapter.queryStatus(h.lookup(req))).providerState === 'OK', {
      what: 'OK by status',
    });
    expect(receivedFor(req.partnerReference)).toEqual([]);
  });

  it('a duplicated callback carries the same replay key (the bridge takes it once)', async () => {
    h.mock.control.setCallbackPlan({ copies: 2, gapMs: 20 });
    const req = h.request('01');
    await h.adapter.pushUssd(req);
    const both = await waitFor(
      () => receivedFor(req.partnerReference).length === 2 && receivedFor(req.partnerReference),
      { what: 'two callbacks' },
    );
    const keys = both.map((r) => parse(r, pathOf(req.callbackUrl))!.replayKey);
    expect(keys[0]).toBe(keys[1]);
  });

  it("a callback arriving before the push's answer names the payment all the same", async () => {
    h.mock.control.holdAccept(250);
    h.mock.control.setOutcome('requesttopay', '2250500000001', { final: { status: 'SUCCESSFUL', afterMs: 0 } });
    const req = h.request('01');
    const push = h.adapter.pushUssd(req);
    const [early] = await waitFor(
      () => receivedFor(req.partnerReference).length > 0 && receivedFor(req.partnerReference),
      { what: 'the early callback' },
    );
    let answered = false;
    void push.then(() => {
      answered = true;
    });
    await Promise.resolve();
    expect(answered).toBe(false);
    expect(parse(early!, pathOf(req.callbackUrl))).toMatchObject({ partnerReference: req.partnerReference });
    await expect(push).resolves.toMatchObject({ accepted: true });
  });

  it('a callback for a reference MTN does not know is a hint the status query answers "not found"', async () => {
    const req = h.request('01');
    const sent = await h.mock.control.sendCallback(req.callbackUrl, {
      externalId: req.partnerReference,
      status: 'SUCCESSFUL',
      financialTransactionId: '1',
    });
    expect(sent.status).toBe(200);
    expect(parse(receivedFor(req.partnerReference)[0]!, pathOf(req.callbackUrl))).toMatchObject({
      hint: true,
      partnerReference: req.partnerReference,
    });
    await expect(h.adapter.queryStatus(h.lookup(req))).resolves.toMatchObject({
      found: false,
      providerState: 'PENDING',
    });
  });

  it('a FAILED callback while the status still says PENDING: nothing is applied until the status says FAILED', async () => {
    h.mock.control.setCallbackPlan({ aheadOfStatusMs: 300 });
    const req = h.request('02');
    await h.adapter.pushUssd(req);
    const [cb] = await waitFor(
      () => receivedFor(req.partnerReference).length > 0 && receivedFor(req.partnerReference),
      { what: 'the callback' },
    );
    expect(JSON.parse(cb!.body)).toMatchObject({ status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' });
    expect('providerState' in parse(cb!, pathOf(req.callbackUrl))!).toBe(false);
    await expect(h.adapter.queryStatus(h.lookup(req))).resolves.toMatchObject({ providerState: 'PENDING' });
    await waitFor(async () => (await h.adapter.queryStatus(h.lookup(req))).providerState === 'canceled', {
      what: 'the status catching up',
    });
  });

  it('a callback whose externalId is not the payment of its URL is refused (null)', async () => {
    const a = h.request('01');
    const b = h.request('01');
    await h.mock.control.sendCallback(a.callbackUrl, { externalId: b.partnerReference, status: 'SUCCESSFUL' });
    const [received] = receivedFor(b.partnerReference);
    expect(parse(received!, pathOf(a.callbackUrl))).toBeNull();
  });
});
