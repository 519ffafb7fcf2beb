import { startHarness, type Harness } from './test-support/harness.js';
import { waitFor } from '@mm/testing';

describe('sandbox virtual phone', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const sandbox = (reference: string, verb: string, query = '') =>
    h.sandbox(`/sandbox/payments/${encodeURIComponent(reference)}/${verb}${query}`, {
      method: 'POST',
      redirect: 'manual',
    });

  async function callbackFor(reference: string) {
    const [callback] = await waitFor(() => h.receiver.for(reference).length > 0 && h.receiver.for(reference), {
      what: 'callback',
    });
    return h.adapter.parseCallback(callback!.rawBody, callback!.headers, Date.now());
  }

  it('confirm on a number without a scripted outcome gives OK / 200 with a provider_tx_id and sends the callback', async () => {
    const req = h.request('42');
    await h.adapter.pushUssd(req);
    const res = await sandbox(req.partnerReference, 'confirm');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { provider_tx_id: string };
    expect(body).toEqual({
      partner_reference: req.partnerReference,
      state: 'OK',
      txn_status: '200',
      provider_tx_id: expect.stringMatching(/^MP\d+$/),
    });
    await expect(callbackFor(req.partnerReference)).resolves.toMatchObject({
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: body.provider_tx_id,
    });
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
      providerState: 'OK',
      providerTxId: body.provider_tx_id,
    });
  });

  it('GET /sandbox/pushes tells when each push was decided: null while PENDING, the moment of the answer after', async () => {
    const req = h.request('42');
    await h.adapter.pushUssd(req);
    const listed = async () => {
      const body = (await (await h.sandbox(`/sandbox/pushes`)).json()) as {
        pushes: { partner_reference: string; created_at: string; decided_at: string | null }[];
      };
      return body.pushes.find((p) => p.partner_reference === req.partnerReference)!;
    };
    expect((await listed()).decided_at).toBeNull();
    const before = Date.now();
    expect((await sandbox(req.partnerReference, 'confirm')).status).toBe(200);
    const decided = Date.parse((await listed()).decided_at!);
    expect(decided).toBeGreaterThanOrEqual(before);
    expect(decided).toBeLessThanOrEqual(Date.now());
  });

  it('decline gives canceled with a null txn_status (customer did not validate) and sends the callback', async () => {
    const req = h.request('77');
    await h.adapter.pushUssd(req);
    expect((await sandbox(req.partnerReference, 'decline')).status).toBe(200);
    await expect(callbackFor(req.partnerReference)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: null,
      failureReason: null,
      providerTxId: null,
    });
  });

  it('answers 409 when the push is no longer PENDING and 404 when the reference is unknown', async () => {
    const req = h.request('42');
    await h.adapter.pushUssd(req);
    expect((await sandbox(req.partnerReference, 'decline')).status).toBe(200);
    const again = await sandbox(req.partnerReference, 'confirm');
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: 'not_pending', state: 'canceled' });
    expect((await sandbox('unknown-ref', 'confirm')).status).toBe(404);
    expect((await sandbox('unknown-ref', 'decline')).status).toBe(404);
    await callbackFor(req.partnerReference);
    expect(h.receiver.for(req.partnerReference)).toHaveLength(1);
  });

  it('a person answering before a scripted outcome wins; the scripted timer then changes nothing', async () => {
    const req = h.request('01');
    await h.adapter.pushUssd(req);
    await sandbox(req.partnerReference, 'decline');
    await waitFor(() =>
      h.events.some((e) => e.event === 'push.resolved' && e.fields.partner_reference === req.partnerReference),
    );
    const soon = h.request('01');
    await h.adapter.pushUssd(soon);
    await callbackFor(soon.partnerReference);
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ providerState: 'canceled' });
    expect(h.receiver.for(req.partnerReference)).toHaveLength(1);
  });

  it('GET /phone lists PENDING pushes with amount, currency, masked number and motif, and Confirm / Decline forms', async () => {
    const req = h.request('55', { amount: 2500, motif: 'Shoes <size 42>' });
    await h.adapter.pushUssd(req);
    const res = await h.sandbox(`/phone`);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('2500 XOF');
    expect(html).toContain('+225********55');
    expect(html).not.toContain(req.msisdn);
    expect(html).toContain('Shoes &#60;size 42&#62;');
    expect(html).toContain(`action="/sandbox/payments/${req.partnerReference}/confirm?then=phone"`);
    expect(html).toContain(`action="/sandbox/payments/${req.partnerReference}/decline?then=phone"`);
  });

  it('a form post from the phone page redirects back to /phone, where the answered push is gone', async () => {
    const req = h.request('56');
    await h.adapter.pushUssd(req);
    const res = await sandbox(req.partnerReference, 'confirm', '?then=phone');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/phone');
    expect(await (await h.sandbox(`/phone`)).text()).not.toContain(req.partnerReference);
    await expect(callbackFor(req.partnerReference)).resolves.toMatchObject({ providerState: 'OK' });
  });
});
