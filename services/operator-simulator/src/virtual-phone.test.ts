import { startHarness, type Harness } from './test-support/harness.js';
import { waitFor } from '@mm/testing';

describe('virtual phone of one number', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const phone = (msisdn: string) => h.sandbox(`/phone?msisdn=${encodeURIComponent(msisdn)}`);
  /** What the phone page's forms send: application/x-www-form-urlencoded, no redirect followed. */
  const submit = (
    reference: string,
    verb: 'confirm' | 'decline',
    msisdn: string,
    fields: Record<string, string> = {},
  ) =>
    h.sandbox(
      `/sandbox/payments/${encodeURIComponent(reference)}/${verb}?then=phone&msisdn=${encodeURIComponent(msisdn)}`,
      {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      },
    );

  async function callbackFor(reference: string) {
    const [callback] = await waitFor(() => h.receiver.for(reference).length > 0 && h.receiver.for(reference), {
      what: 'callback',
    });
    return h.adapter.parseCallback(callback!.rawBody, callback!.headers, Date.now());
  }

  it('shows only the prompts pushed to that number, with amount, currency, motif, reference and a code field; does not refresh over it', async () => {
    const mine = h.request('61', { amount: 5000, motif: 'Commande <42>' });
    const other = h.request('62');
    await h.adapter.pushUssd(mine);
    await h.adapter.pushUssd(other);
    const res = await phone(mine.msisdn);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain(mine.partnerReference);
    expect(html).not.toContain(other.partnerReference);
    expect(html).toContain('5000 XOF');
    expect(html).toContain('Commande &#60;42&#62;');
    expect(html).toMatch(
      /<input id="code-[^"]+" name="code" type="password" inputmode="numeric" pattern="\[0-9\]\{4\}"/,
    );
    expect(html).toMatch(/<label for="code-[^"]+">Secret code \(4 digits\)<\/label>/);
    expect(html).toContain(
      `action="/sandbox/payments/${mine.partnerReference}/confirm?then=phone&#38;msisdn=%2B${mine.msisdn.slice(1)}"`,
    );
    expect(html).toContain(
      `action="/sandbox/payments/${mine.partnerReference}/decline?then=phone&#38;msisdn=%2B${mine.msisdn.slice(1)}"`,
    );
    expect(html).not.toContain('http-equiv="refresh"');
    // The number form keeps the number, escaped.
    expect(html).toContain(`name="msisdn" type="tel" autocomplete="off" required value="${mine.msisdn}"`);
  });

  it('refreshes while waiting for a prompt, and a number typed without + or with spaces is understood', async () => {
    const html = await (await h.sandbox(`/phone?msisdn=${encodeURIComponent(' 225 0700 000 099')}`)).text();
    expect(html).toContain('+2250700000099');
    expect(html).toContain('No payment request waiting.');
    expect(html).toContain('<meta http-equiv="refresh" content="3">');
  });

  it('answers a malformed number with 400 and the form, escaped', async () => {
    const res = await phone('<b>12');
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('E.164');
    expect(html).toContain('value="&#60;b&#62;12"');
    expect(html).not.toContain('<b>');
  });

  it('any 4-digit code confirms: OK / 200 callback, back to the number page where the push shows as confirmed', async () => {
    const req = h.request('63');
    await h.adapter.pushUssd(req);
    const res = await submit(req.partnerReference, 'confirm', req.msisdn, { code: '4821' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/phone?msisdn=${encodeURIComponent(req.msisdn)}`);
    await expect(callbackFor(req.partnerReference)).resolves.toMatchObject({
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^MP\d+$/),
    });
    const html = await (await phone(req.msisdn)).text();
    expect(html).not.toContain('name="code"');
    expect(html).toContain(`data-reference="${req.partnerReference}" data-state="OK"`);
    expect(html).toContain('Confirmed');
    expect(html).toContain('<meta http-equiv="refresh" content="3">');
  });

  it('0000 is a wrong code: canceled / 54321 / 00017 like a real wrong code', async () => {
    const req = h.request('64');
    await h.adapter.pushUssd(req);
    expect((await submit(req.partnerReference, 'confirm', req.msisdn, { code: '0000' })).status).toBe(303);
    await expect(callbackFor(req.partnerReference)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: '54321',
      failureReason: '00017',
      providerTxId: null,
    });
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
      providerState: 'canceled',
      failureReason: '00017',
    });
    expect(await (await phone(req.msisdn)).text()).toContain('Wrong secret code');
  });

  it('Decline gives canceled with a null txn_status, whatever code was typed', async () => {
    const req = h.request('65');
    await h.adapter.pushUssd(req);
    expect((await submit(req.partnerReference, 'decline', req.msisdn, { code: '1234' })).status).toBe(303);
    await expect(callbackFor(req.partnerReference)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: null,
      failureReason: null,
    });
    expect(await (await phone(req.msisdn)).text()).toContain('Declined');
  });

  it('a code that is not 4 digits answers 400 and decides nothing; the JSON API takes a code too', async () => {
    const req = h.request('66');
    await h.adapter.pushUssd(req);
    expect((await submit(req.partnerReference, 'confirm', req.msisdn, { code: '12a4' })).status).toBe(400);
    const json = await h.sandbox(`/sandbox/payments/${req.partnerReference}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '123' }),
    });
    expect(json.status).toBe(400);
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ providerState: 'PENDING' });
    const wrong = await h.sandbox(`/sandbox/payments/${req.partnerReference}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '0000' }),
    });
    expect(await wrong.json()).toMatchObject({ state: 'canceled', txn_status: '54321' });
    expect(h.receiver.for(req.partnerReference).length).toBeLessThanOrEqual(1);
  });

  it('a push the operator rejected (number ending 07) never reaches the phone', async () => {
    const req = h.request('07');
    await h.adapter.pushUssd(req).catch(() => undefined);
    expect(await (await phone(req.msisdn)).text()).not.toContain(req.partnerReference);
  });
});
