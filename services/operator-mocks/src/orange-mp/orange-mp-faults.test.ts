import { OperatorUnavailableError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { PROXY_NOT_FOUND_PAGE, WSO2_SEND_TIMEOUT } from '../orange-shared/faults.js';
import { startMpHarness, type MpHarness } from './harness.js';

describe('Orange mp adapter against the mp mock: tokens, faults, notifications', () => {
  let h: MpHarness;
  beforeAll(async () => {
    h = await startMpHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('a bearer expired mid-flight: the 401 makes one refresh and one retry, the push goes through once', async () => {
    await h.pay(h.request('01'));
    const issued = h.mock.control.tokensIssued();
    h.mock.control.expireTokens();
    const { req, ack } = await h.pay(h.request('01'));
    expect(ack).toMatchObject({ accepted: true });
    expect(h.mock.control.tokensIssued()).toBe(issued + 1);
    expect(h.mock.control.paysFor(req.partnerReference)).toBe(1);
  });

  it('concurrent calls with no token share one refresh', async () => {
    const fresh = h.adapterWith();
    const before = h.mock.control.tokensIssued();
    const reqs = [h.request('01'), h.request('01'), h.request('01')];
    await Promise.all(reqs.map((r) => fresh.queryStatus({ ...r, providerSessionId: 'MP000000UNKNOWN' })));
    expect(h.mock.control.tokensIssued()).toBe(before + 1);
  });

  it('a token endpoint that refuses our credentials is a plain error, not a refusal of the payment', async () => {
    const wrong = new (h.adapter.constructor as typeof import('@mm/operators').OrangeMpAdapter)({
      baseUrl: h.mock.url,
      clientId: 'mp-user',
      clientSecret: 'nope',
      xAuthToken: 'mp-x-auth',
      channelUserMsisdn: '691234567',
      pin: '2222',
      timeoutMs: 2_000,
    });
    const error = await wrong.prepare().catch((e: unknown) => e);
    expect(String(error)).toContain('token');
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect((error as Error).name).toBe('Error');
  });

  it.each([500, 503])(
    'a %s to the pay is OperatorUnavailableError; the stored payToken resolves it later',
    async (status) => {
      h.mock.control.fault('pay', { kind: 'status', status, body: { message: 'error' } });
      const { providerSessionId } = await h.adapter.prepare();
      const req = { ...h.request('01'), providerSessionId };
      await expect(h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
      // Nothing was paid: the token is still INITIATED, and the retried push pays once.
      await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({
        found: true,
        providerState: 'PENDING',
        providerTxnStatus: 'INITIATED',
      });
      await expect(h.adapter.pushUssd(req)).resolves.toMatchObject({ accepted: true });
      expect(h.mock.control.paysFor(req.partnerReference)).toBe(1);
    },
  );

  it('the WSO2 "Send timeout" (500, XML) is OperatorUnavailableError', async () => {
    h.mock.control.fault('status', WSO2_SEND_TIMEOUT);
    await expect(h.adapter.queryStatus({ ...h.request('01'), providerSessionId: 'MPX' })).rejects.toBeInstanceOf(
      OperatorUnavailableError,
    );
  });

  it('a pay that happened but whose answer never came (timeout) is resolved by status, and a retry does not pay twice', async () => {
    h.mock.control.fault('pay', { kind: 'drop-after' });
    const { providerSessionId } = await h.adapter.prepare();
    const req = { ...h.request('01'), providerSessionId };
    await expect(h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(h.adapter.pushUssd(req)).resolves.toMatchObject({ accepted: true, providerSessionId });
    expect(h.mock.control.paysFor(req.partnerReference)).toBe(1);
    await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK' });
  });

  it('a status query answered 404 by something other than Orange (a proxy\'s HTML page, the gateway\'s fault) is OperatorUnavailableError, not "never received"', async () => {
    const { req } = await h.pay(h.request('06'));
    h.mock.control.fault('status', PROXY_NOT_FOUND_PAGE);
    await expect(h.adapter.queryStatus(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    h.mock.control.fault('status', {
      kind: 'status',
      status: 404,
      body: {
        fault: {
          code: 404,
          message: 'No matching resource found for given API Request',
          description: 'The requested resource is not available.',
        },
      },
    });
    await expect(h.adapter.queryStatus(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    // Reconciliation's record of it is no "Orange does not know it" either.
    h.mock.control.fault('status', PROXY_NOT_FOUND_PAGE);
    await expect(
      h.adapter.recordOf({
        kind: 'CASHIN',
        reference: req.partnerReference,
        payment: { ...req, providerTxId: null },
        amount: req.amount,
        currency: req.currency,
      }),
    ).rejects.toBeInstanceOf(OperatorUnavailableError);
    // Orange's own answer for the token, once the path is right again.
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ found: true, providerState: 'PENDING' });
    // Its pay token expires and Orange notifies it: heard here, not by a later test's notification fault.
    await waitFor(() => h.notificationsFor(req.partnerReference).length === 1 || undefined, {
      what: "the expired payment's notification",
    });
  });

  it('a hanging operator is OperatorUnavailableError after our timeout', async () => {
    h.mock.control.fault('status', { kind: 'hang' });
    await expect(
      h.adapterWith(150).queryStatus({ ...h.request('01'), providerSessionId: 'MPX' }),
    ).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('notifications: one per decision, unsigned, read as a hint naming the reference from the URL path', async () => {
    const { req } = await h.pay(h.request('01'));
    const [n] = await waitFor(
      () => h.notificationsFor(req.partnerReference).length === 1 && h.notificationsFor(req.partnerReference),
      { what: 'the notification' },
    );
    expect(n!.body).toMatchObject({ payToken: req.providerSessionId, status: 'SUCCESSFULL' });
    const hint = h.adapter.parseCallback(
      Buffer.from(JSON.stringify(n!.body)),
      {},
      Date.now(),
      `/${req.partnerReference}`,
    );
    expect(hint).toEqual({
      hint: true,
      partnerReference: req.partnerReference,
      replayKey: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('a lost notification leaves the status query to decide', async () => {
    h.mock.control.notificationFault('lose');
    const { req } = await h.pay(h.request('01'));
    await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK' });
    // A later payment's notification arriving proves the first one had its chance.
    const later = await h.pay(h.request('01'));
    await waitFor(() => h.notificationsFor(later.req.partnerReference).length > 0, { what: 'the later notification' });
    expect(h.notificationsFor(req.partnerReference)).toHaveLength(0);
  });

  it('a duplicated notification gives the same replayKey twice (the bridge takes it once)', async () => {
    h.mock.control.notificationFault('duplicate');
    const { req } = await h.pay(h.request('01'));
    const both = await waitFor(
      () => h.notificationsFor(req.partnerReference).length === 2 && h.notificationsFor(req.partnerReference),
      { what: 'two notifications' },
    );
    const keys = both.map((n) =>
      h.adapter.parseCallback(Buffer.from(JSON.stringify(n.body)), {}, Date.now(), req.partnerReference),
    );
    expect(keys[0]).toEqual(keys[1]);
  });

  it('a notification before the pay answer, and one ahead of the status: the status query says PENDING meanwhile', async () => {
    h.mock.control.notifyBeforePayAnswer();
    h.mock.control.setStatusLag(300);
    try {
      const { req } = await h.pay(h.request('01'));
      expect(h.notificationsFor(req.partnerReference)[0]?.body).toMatchObject({ status: 'PENDING' });
      await waitFor(() => h.notificationsFor(req.partnerReference).some((n) => n.body.status === 'SUCCESSFULL'), {
        what: 'the early SUCCESSFULL notification',
      });
      await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ providerState: 'PENDING' });
      await expect(h.settled(req)).resolves.toMatchObject({ providerState: 'OK' });
    } finally {
      h.mock.control.setStatusLag(0);
    }
  });

  it('a notification for an unknown reference is still only a hint; its status query finds nothing', async () => {
    const url = `${h.receiver.url}/tx_unknown`;
    h.mock.control.notify(url, { payToken: 'MP000000FORGED', status: 'SUCCESSFULL' });
    const n = await waitFor(() => h.mock.control.notifications.find((x) => x.url === url), {
      what: 'the forged notification',
    });
    expect(h.adapter.parseCallback(Buffer.from(JSON.stringify(n.body)), {}, Date.now(), '/tx_unknown')).toMatchObject({
      hint: true,
      partnerReference: 'tx_unknown',
    });
    await expect(
      h.adapter.queryStatus({
        ...h.request('01'),
        partnerReference: 'tx_unknown',
        providerSessionId: 'MP000000FORGED',
      }),
    ).resolves.toMatchObject({ found: false });
  });

  it.each([
    ['not JSON', 'status=SUCCESSFULL', '/tx_1'],
    ['a JSON array', '[]', '/tx_1'],
    ['no reference in the path', '{"status":"SUCCESSFULL"}', '/'],
    ['a nested path', '{"status":"SUCCESSFULL"}', '/a/b'],
    ['no path at all', '{"status":"SUCCESSFULL"}', undefined],
  ])('parseCallback returns null for %s', (_what, body, path) => {
    expect(h.adapter.parseCallback(Buffer.from(body), {}, Date.now(), path)).toBeNull();
  });
});
