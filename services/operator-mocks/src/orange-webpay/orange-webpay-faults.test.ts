import { OperatorUnavailableError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { startWebpayHarness, type WebpayHarness } from './harness.js';

describe('Orange WebPay adapter against the WebPay mock: tokens, faults, notifications', () => {
  let h: WebpayHarness;
  beforeAll(async () => {
    h = await startWebpayHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('expires_in comes as a string ("7776000") and is honoured: one token for many calls', async () => {
    const fresh = h.adapterWith();
    const before = h.mock.control.tokensIssued();
    await fresh.pushUssd(h.request());
    await fresh.pushUssd(h.request());
    expect(h.mock.control.tokensIssued()).toBe(before + 1);
  });

  it('a token expired mid-flight (401 code 42): one refresh, one retry, one payment', async () => {
    await h.adapter.pushUssd(h.request());
    const before = h.mock.control.tokensIssued();
    h.mock.control.expireTokens();
    const req = h.request();
    await expect(h.adapter.pushUssd(req)).resolves.toMatchObject({ accepted: true });
    expect(h.mock.control.tokensIssued()).toBe(before + 1);
    expect(h.mock.control.paymentsFor(req.partnerReference)).toBe(1);
  });

  it('concurrent calls share one refresh', async () => {
    const fresh = h.adapterWith();
    const before = h.mock.control.tokensIssued();
    await Promise.all([1, 2, 3].map(() => fresh.queryStatus({ ...h.request(), providerSessionId: 'v1unknown' })));
    expect(h.mock.control.tokensIssued()).toBe(before + 1);
  });

  it('a refused client at the token endpoint is a plain error (our credentials)', async () => {
    const error = await h
      .adapterWith({ clientSecret: 'wrong' })
      .pushUssd(h.request())
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('Error');
    expect(String(error)).toContain('token');
  });

  it.each([500, 502, 429])('a %s to the init is OperatorUnavailableError', async (status) => {
    h.mock.control.fault('init', {
      kind: 'status',
      status,
      body: { code: 5000, message: 'Internal error', description: 'x' },
    });
    await expect(h.adapter.pushUssd(h.request())).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('an init that happened but whose answer was lost: the retry meets the duplicate refusal, creates nothing', async () => {
    h.mock.control.fault('init', { kind: 'drop-after' });
    const req = h.request();
    await expect(h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    expect(h.mock.control.paymentsFor(req.partnerReference)).toBe(1);
  });

  it('a status query that times out is OperatorUnavailableError; the next one answers', async () => {
    const { req } = await h.payWith('01');
    h.mock.control.fault('status', { kind: 'hang' });
    await expect(h.adapterWith({ timeoutMs: 150 }).queryStatus(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK' });
  });

  it('a slow answer within our timeout is just slow', async () => {
    const { req } = await h.payWith('01');
    h.mock.control.fault('status', { kind: 'slow', ms: 100 });
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ found: true });
  });

  it('notif_url gets {status, notif_token, txnid}, unsigned: a hint naming the reference from the path', async () => {
    const { req } = await h.payWith('01');
    const [n] = await waitFor(
      () => h.notificationsFor(req.partnerReference).length === 1 && h.notificationsFor(req.partnerReference),
      { what: 'the notification' },
    );
    expect(n!.body).toEqual({
      status: 'SUCCESS',
      notif_token: h.mock.control.payment(req.providerSessionId!)!.notifToken,
      txnid: expect.any(String),
    });
    expect(h.adapter.parseCallback(Buffer.from(JSON.stringify(n!.body)), {}, Date.now(), req.partnerReference)).toEqual(
      { hint: true, partnerReference: req.partnerReference, replayKey: expect.any(String) },
    );
  });

  it('a lost notification: the status query decides', async () => {
    h.mock.control.notificationFault('lose');
    const { req } = await h.payWith('01');
    await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK' });
    const later = await h.payWith('01');
    await waitFor(() => h.notificationsFor(later.req.partnerReference).length > 0, { what: 'the later notification' });
    expect(h.notificationsFor(req.partnerReference)).toHaveLength(0);
  });

  it('a duplicated notification has one replayKey', async () => {
    h.mock.control.notificationFault('duplicate');
    const { req } = await h.payWith('02');
    const both = await waitFor(
      () => h.notificationsFor(req.partnerReference).length === 2 && h.notificationsFor(req.partnerReference),
      { what: 'two notifications' },
    );
    const [a, b] = both.map((n) =>
      h.adapter.parseCallback(Buffer.from(JSON.stringify(n.body)), {}, Date.now(), `/${req.partnerReference}`),
    );
    expect(a).toEqual(b);
  });

  it('a notification ahead of the status: SUCCESS notified while the status query still says PENDING', async () => {
    h.mock.control.setStatusLag(300);
    try {
      const { req } = await h.payWith('01');
      await waitFor(() => h.notificationsFor(req.partnerReference).length > 0, { what: 'the notification' });
      await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ providerState: 'PENDING' });
      await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK' });
    } finally {
      h.mock.control.setStatusLag(0);
    }
  });

  it('a notification for an unknown reference is a hint whose status finds nothing', async () => {
    const url = `${h.receiver.url}/tx_nobody`;
    h.mock.control.notify(url, { status: 'SUCCESS', notif_token: 'forged', txnid: 'MP1' });
    const n = await waitFor(() => h.mock.control.notifications.find((x) => x.url === url), {
      what: 'the forged notification',
    });
    expect(h.adapter.parseCallback(Buffer.from(JSON.stringify(n.body)), {}, Date.now(), '/tx_nobody')).toMatchObject({
      hint: true,
      partnerReference: 'tx_nobody',
    });
    await expect(
      h.adapter.queryStatus({ ...h.request(), partnerReference: 'tx_nobody', providerSessionId: 'v1forged' }),
    ).resolves.toMatchObject({ found: false });
  });

  it.each([
    ['not JSON', 'x', '/tx_1'],
    ['null', 'null', '/tx_1'],
    ['an empty path', '{}', ''],
    ['no path', '{}', undefined],
  ])('parseCallback returns null for %s', (_w, body, path) => {
    expect(h.adapter.parseCallback(Buffer.from(body), {}, Date.now(), path)).toBeNull();
  });
});
