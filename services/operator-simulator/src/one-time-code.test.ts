import { OperatorRefusedError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { API_TOKEN, startHarness, type Harness } from './test-support/harness.js';

/** The sandbox's one-time-code payments: numbers whose national number starts with 0701 (scenarios.ts). */
describe('one-time-code payments', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const otpRequest = (suffix: string) => h.request(suffix, { msisdn: `+22507010000${suffix}` });
  const postCode = (reference: string, body: unknown, token = API_TOKEN) =>
    fetch(`${h.sim.url}/v1/payments/${encodeURIComponent(reference)}/otp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  async function callbackFor(reference: string) {
    const [callback] = await waitFor(() => h.receiver.for(reference).length > 0 && h.receiver.for(reference), {
      what: 'callback',
    });
    return h.adapter.parseCallback(callback!.rawBody, callback!.headers, Date.now());
  }

  it('answers the push with customer_action OTP, and decides nothing (no ringing phone, no result) before the code', async () => {
    const otp = otpRequest('01');
    const plain = h.request('01');
    expect(await h.adapter.pushUssd(otp)).toEqual({
      accepted: true,
      providerSessionId: expect.any(String),
      customerAction: { type: 'OTP', ussd: '#144*82#' },
    });
    expect(await h.adapter.pushUssd(plain)).toEqual({ accepted: true, providerSessionId: expect.any(String) });
    // The plain 01 push pushed at the same time is decided: its outcome delay has passed, the code payment's did not count.
    await callbackFor(plain.partnerReference);
    expect(await h.adapter.queryStatus(otp)).toMatchObject({ found: true, providerState: 'PENDING' });
    expect(h.receiver.for(otp.partnerReference)).toEqual([]);
    expect(await (await h.sandbox(`/phone?msisdn=${encodeURIComponent(otp.msisdn)}`)).text()).toContain(
      'No payment request waiting.',
    );
    // Nobody can answer it on the phone either.
    expect((await h.sandbox(`/sandbox/payments/${otp.partnerReference}/confirm`, { method: 'POST' })).status).toBe(409);
  });

  it("a right code plays the number's scenario: 01 ends OK with its signed callback", async () => {
    const otp = otpRequest('01');
    await h.adapter.pushUssd(otp);
    await h.adapter.submitCode(otp, '482913');
    expect(await callbackFor(otp.partnerReference)).toMatchObject({
      partnerReference: otp.partnerReference,
      providerState: 'OK',
      providerTxnStatus: '200',
    });
  });

  it('a right code on a number without a scripted outcome rings the virtual phone', async () => {
    const otp = otpRequest('55');
    await h.adapter.pushUssd(otp);
    await h.adapter.submitCode(otp, '4829');
    expect(await (await h.sandbox(`/phone?msisdn=${encodeURIComponent(otp.msisdn)}`)).text()).toContain(
      otp.partnerReference,
    );
  });

  it('the wrong code 000000 cancels the payment as a wrong secret code (canceled / 54321 / 00017)', async () => {
    const otp = otpRequest('01');
    await h.adapter.pushUssd(otp);
    await h.adapter.submitCode(otp, '000000');
    expect(await callbackFor(otp.partnerReference)).toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: '54321',
      failureReason: '00017',
    });
    expect(await h.adapter.queryStatus(otp)).toMatchObject({ providerState: 'canceled', failureReason: '00017' });
  });

  it('refuses a code for a decided payment (409), an unknown one (404), a payment without code (409): OperatorRefusedError', async () => {
    const otp = otpRequest('01');
    await h.adapter.pushUssd(otp);
    await h.adapter.submitCode(otp, '000000');
    const refused = (e: unknown) => (e instanceof OperatorRefusedError && e.operation === 'code' ? e.httpStatus : null);
    expect(await h.adapter.submitCode(otp, '123456').catch(refused)).toBe(409);
    expect(await h.adapter.submitCode(h.request('01'), '123456').catch(refused)).toBe(404);
    const plain = h.request('06');
    await h.adapter.pushUssd(plain);
    expect(await h.adapter.submitCode(plain, '123456').catch(refused)).toBe(409);
  });

  it('answers 400 to a code that is not 4 to 8 digits and 401 without the token, taking nothing', async () => {
    const otp = otpRequest('01');
    await h.adapter.pushUssd(otp);
    for (const code of ['123', '123456789', '12a456', 123456])
      expect((await postCode(otp.partnerReference, { code })).status).toBe(400);
    expect((await postCode(otp.partnerReference, { code: '000000' }, 'wrong')).status).toBe(401);
    expect(await h.adapter.queryStatus(otp)).toMatchObject({ providerState: 'PENDING' });
    // Still waiting for its code.
    expect((await postCode(otp.partnerReference, { code: '1234' })).status).toBe(202);
  });
});
