import { waitFor } from '@mm/testing';
import { checkout, waveHarness } from './test-support.js';

describe("the Wave mock's launch page and session expiry", () => {
  type Harness = Awaited<ReturnType<typeof waveHarness>>;
  // The pages are read and pressed within a lifetime no loaded machine outlasts; the expiry test has a
  // mock of its own whose sessions end after 300 ms (a shared short lifetime once expired a page before
  // it was read, on a loaded CI machine).
  let h: Harness;
  let shortLived: Harness;
  beforeAll(async () => {
    h = await waveHarness({ autoPay: false, sessionLifetimeMs: 60_000 });
    shortLived = await waveHarness({ autoPay: false, sessionLifetimeMs: 300 });
  });
  afterAll(async () => {
    await h.close();
    await shortLived.close();
  });

  async function launch(ending: string, on: Harness = h) {
    const req = checkout(ending);
    const ack = await on.adapter.pushUssd(req);
    if (!ack.accepted || ack.customerAction?.type !== 'REDIRECT') throw new Error('no redirect');
    return { req, url: ack.customerAction.url, id: ack.providerSessionId! };
  }
  const press = (url: string, button: 'pay' | 'cancel') =>
    fetch(`${url}/${button}`, { method: 'POST', redirect: 'manual' });

  it('is a plain HTML page with Pay and Cancel forms, no script', async () => {
    const { url } = await launch('01');
    const html = await (await fetch(url)).text();
    expect(html).toContain('<form method="post"');
    expect(html).toContain('Pay 1000 XOF');
    expect(html).not.toContain('<script');
  });

  it('Pay completes the session and sends the browser to success_url', async () => {
    const { req, url } = await launch('01');
    const res = await press(url, 'pay');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(req.returnUrl);
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: null })).resolves.toMatchObject({
      providerState: 'OK',
    });
  });

  it('Pay with a payer ending 02 fails the attempt and sends the browser to error_url', async () => {
    const { req, url } = await launch('02');
    const res = await press(url, 'pay');
    expect(res.headers.get('location')).toBe(`${req.returnUrl}?wave=error`);
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: null })).resolves.toMatchObject({
      failureCode: 'INSUFFICIENT_BALANCE',
    });
  });

  it('Cancel ends the session unpaid and sends the browser to error_url', async () => {
    const { req, url } = await launch('01');
    expect((await press(url, 'cancel')).headers.get('location')).toBe(`${req.returnUrl}?wave=error`);
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: null })).resolves.toMatchObject({
      providerState: 'canceled',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  it('a session nobody pays expires after its lifetime (06: never confirms); a retried push then adopts it, never a second one', async () => {
    const { req, id } = await launch('06', shortLived);
    const result = await waitFor(
      async () => {
        const r = await shortLived.adapter.queryStatus({ ...req, providerSessionId: id });
        return r.providerState !== 'PENDING' && r;
      },
      { what: 'expiry' },
    );
    expect(result).toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'cancelled',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
    const again = await shortLived.adapter.pushUssd(req);
    expect(again.accepted && again.providerSessionId).toBe(id);
    expect(shortLived.mock.control.sessionsFor(req.partnerReference)).toHaveLength(1);
  });
});
