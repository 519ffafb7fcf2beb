import { SANDBOX_COOKIE } from './routes/sandbox-auth.js';
import { API_TOKEN, SANDBOX_TOKEN, startHarness, type Harness } from './test-support/harness.js';

/**
 * The sandbox routes decide payments (confirm, decline), break the operator (faults) and list every
 * customer number pushed: nobody without SIM_SANDBOX_TOKEN reaches them, nor the virtual phone.
 */
describe('sandbox token', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const ROUTES: [string, string][] = [
    ['GET', '/sandbox/pushes'],
    ['GET', '/sandbox/refunds'],
    ['GET', '/sandbox/disbursements'],
    ['GET', '/sandbox/faults'],
    ['PUT', '/sandbox/faults'],
    ['DELETE', '/sandbox/faults'],
    ['POST', '/sandbox/payments/REF/confirm'],
    ['POST', '/sandbox/payments/REF/decline'],
    ['POST', '/sandbox/payments/REF/resend-callback'],
    ['POST', '/sandbox/payments/REF/hang-refunds'],
    ['DELETE', '/sandbox/payments/REF/hang-refunds'],
    ['GET', '/phone'],
    ['GET', '/phone?msisdn=%2B2250700000042'],
  ];

  it("every sandbox route and the phone answer 401 without the token, with a wrong one, or with the operator's, and change nothing", async () => {
    const req = h.request('42');
    await h.adapter.pushUssd(req);
    const json = { 'Content-Type': 'application/json' };
    const tries: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer wrong-token-wrong-token' },
      { Authorization: `Bearer ${API_TOKEN}` },
      { Authorization: SANDBOX_TOKEN },
    ];
    for (const headers of tries) {
      for (const [method, path] of ROUTES) {
        const res = await fetch(`${h.sim.url}${path.replace('REF', req.partnerReference)}`, {
          method,
          redirect: 'manual',
          headers: { ...json, ...headers },
          body: method === 'PUT' ? '{"unreachable":true}' : undefined,
        });
        expect({ method, path, headers, status: res.status }).toEqual({ method, path, headers, status: 401 });
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    }
    expect(h.sim.pushCount(req.partnerReference)).toBe(1);
    const pushes = (await (await h.sandbox('/sandbox/pushes')).json()) as {
      pushes: { partner_reference: string; state: string }[];
    };
    expect(pushes.pushes.find((p) => p.partner_reference === req.partnerReference)?.state).toBe('PENDING');
    expect(await (await h.sandbox('/sandbox/faults')).json()).toMatchObject({ unreachable: false });
  });

  it('health and metrics stay open; the partner API takes the operator token, not the sandbox one', async () => {
    expect((await fetch(`${h.sim.url}/health`)).status).toBe(200);
    expect((await fetch(`${h.sim.url}/metrics`)).status).toBe(200);
    expect(
      (await fetch(`${h.sim.url}/v1/payments/x`, { headers: { Authorization: `Bearer ${SANDBOX_TOKEN}` } })).status,
    ).toBe(401);
  });

  it('a browser without the token gets a page saying how to open the phone', async () => {
    const res = await fetch(`${h.sim.url}/phone`, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('?token=');
    const wrong = await fetch(`${h.sim.url}/phone?token=not-the-token-at-all`, { redirect: 'manual' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it("the printed link: ?token= sets an HttpOnly SameSite=Strict cookie, drops the token from the URL, and the phone's forms work with the cookie", async () => {
    const req = h.request('43');
    await h.adapter.pushUssd(req);
    const msisdn = encodeURIComponent(req.msisdn);
    const opened = await fetch(`${h.sim.url}/phone?msisdn=${msisdn}&token=${SANDBOX_TOKEN}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/phone?msisdn=${msisdn}`);
    const [setCookie] = opened.headers.getSetCookie();
    expect(setCookie).toMatch(new RegExp(`^${SANDBOX_COOKIE}=[^;]+; Path=/; HttpOnly; SameSite=Strict$`));
    const cookie = setCookie!.split(';')[0]!;
    // Not the token itself: a cookie lifted from a browser is no bearer token for scripts.
    expect(cookie).not.toContain(SANDBOX_TOKEN);
    expect(
      (await fetch(`${h.sim.url}/sandbox/pushes`, { headers: { Authorization: `Bearer ${cookie.split('=')[1]}` } }))
        .status,
    ).toBe(401);

    const page = await fetch(`${h.sim.url}/phone?msisdn=${msisdn}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(req.partnerReference);
    const sent = await fetch(
      `${h.sim.url}/sandbox/payments/${req.partnerReference}/confirm?then=phone&msisdn=${msisdn}`,
      {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'code=4821',
      },
    );
    expect(sent.status).toBe(303);
    const pushes = (await (await h.sandbox('/sandbox/pushes')).json()) as {
      pushes: { partner_reference: string; state: string }[];
    };
    expect(pushes.pushes.find((p) => p.partner_reference === req.partnerReference)?.state).toBe('OK');
  });
});
