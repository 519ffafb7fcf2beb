import { waitFor } from '@mm/testing';
import { OperatorRefusedError, OperatorUnavailableError } from '@mm/operators';
import { checkout, waveHarness } from './test-support.js';

describe('Wave adapter against the Wave mock: checkout', () => {
  let h: Awaited<ReturnType<typeof waveHarness>>;
  beforeAll(async () => {
    h = await waveHarness({ timeoutMs: 300 });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => h.mock.control.reset());

  const settle = (req: { partnerReference: string }, providerSessionId: string | null = null) =>
    waitFor(
      async () => {
        const r = await h.adapter.queryStatus({
          ...checkout('00'),
          partnerReference: req.partnerReference,
          providerSessionId,
        });
        return r.providerState !== 'PENDING' && r;
      },
      { what: 'a decided Wave session', timeoutMs: 5_000 },
    );

  it('a push creates a session and answers a redirect to its wave_launch_url; the payment then succeeds', async () => {
    const req = checkout('01');
    const ack = await h.adapter.pushUssd(req);
    if (!ack.accepted) throw new Error('refused');
    expect(ack.providerSessionId).toMatch(/^cos-/);
    expect(ack.customerAction).toEqual({ type: 'REDIRECT', url: `${h.mock.url}/c/${ack.providerSessionId}` });
    expect(h.mock.control.session(ack.providerSessionId!)).toMatchObject({
      amount: '1000',
      restrict_payer_mobile: req.msisdn,
      client_reference: req.partnerReference,
      error_url: 'http://gateway.test/pay/tx-1?wave=error',
    });
    const result = await settle(req, ack.providerSessionId);
    expect(result).toMatchObject({
      found: true,
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^T_/),
    });
  });

  it.each([
    ['02', 'canceled', 'insufficient-funds', 'INSUFFICIENT_BALANCE'],
    ['03', 'KO', 'payment-failure', 'UNKNOWN'],
    ['04', 'KO', 'kyb-limits-exceeded', 'THRESHOLD_REACHED'],
  ])(
    'payer ending %s: the failed attempt reads %s / %s / %s and the session is expired so it cannot be paid later',
    async (ending, state, code, failureCode) => {
      const req = checkout(ending);
      const ack = await h.adapter.pushUssd(req);
      const result = await settle(req);
      expect(result).toMatchObject({ providerState: state, providerTxnStatus: code, failureCode });
      const id = ack.accepted ? ack.providerSessionId! : '';
      expect(h.mock.control.session(id)).toMatchObject({ checkout_status: 'expired' });
      h.mock.control.complete(id);
      expect(h.mock.control.session(id)).toMatchObject({ payment_status: 'cancelled' });
    },
  );

  it('a failed attempt leaves the session payable (Wave): a customer who pays again before our query is a success', async () => {
    const req = checkout('06');
    const ack = await h.adapter.pushUssd(req);
    const id = ack.accepted ? ack.providerSessionId! : '';
    h.mock.control.fail(id, 'insufficient-funds');
    expect(h.mock.control.session(id)).toMatchObject({
      checkout_status: 'open',
      last_payment_error: { code: 'insufficient-funds' },
    });
    h.mock.control.complete(id);
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: id })).resolves.toMatchObject({
      providerState: 'OK',
    });
  });

  it('a failure is not reported while Wave will not close the session (expire answers 409 and it is still open)', async () => {
    const req = checkout('06');
    const ack = await h.adapter.pushUssd(req);
    const id = ack.accepted ? ack.providerSessionId! : '';
    h.mock.control.fail(id, 'insufficient-funds');
    h.mock.control.fault('expireSession', { status: 409 });
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: id })).rejects.toBeInstanceOf(
      OperatorUnavailableError,
    );
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: id })).resolves.toMatchObject({
      providerState: 'canceled',
      failureCode: 'INSUFFICIENT_BALANCE',
    });
  });

  it('payer ending 05 abandons: canceled / CUSTOMER_DID_NOT_VALIDATE', async () => {
    const req = checkout('05');
    await h.adapter.pushUssd(req);
    await expect(settle(req)).resolves.toMatchObject({
      providerState: 'canceled',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  it("payer ending 07 is refused at once: OperatorRefusedError with Wave's validation error", async () => {
    const error = await h.adapter.pushUssd(checkout('07')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperatorRefusedError);
    expect(error).toMatchObject({
      operation: 'push',
      httpStatus: 400,
      detail: expect.stringContaining('request-validation-error'),
    });
  });

  it('payer ending 09 stays PENDING past the usual delay, then succeeds', async () => {
    const req = checkout('09');
    await h.adapter.pushUssd(req);
    await new Promise((r) => setTimeout(r, 150));
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: null })).resolves.toMatchObject({
      found: true,
      providerState: 'PENDING',
    });
    await expect(settle(req)).resolves.toMatchObject({ providerState: 'OK' });
  });

  it('a retried push reuses the session of the reference (Wave would make a second one)', async () => {
    const req = checkout('06');
    const first = await h.adapter.pushUssd(req);
    const second = await h.adapter.pushUssd(req);
    expect(second).toEqual(first);
    expect(h.mock.control.sessionsFor(req.partnerReference)).toHaveLength(1);
  });

  it('a push whose answer is lost (timeout, outcome unknown) is OperatorUnavailableError; the retry finds the session it made', async () => {
    const req = checkout('06');
    h.mock.control.fault('createSession', { lostAnswerMs: 1_000 });
    await expect(h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    const ack = await h.adapter.pushUssd(req);
    expect(h.mock.control.sessionsFor(req.partnerReference)).toEqual([
      expect.objectContaining({ id: ack.accepted && ack.providerSessionId }),
    ]);
  });

  it('a push whose answer is lost while its session ends (the customer gave up, 05): the retry adopts the ended session, never opens a second one', async () => {
    // Found by chaos/operators-spread.test.ts: the bridge's retry made a second checkout for one transaction.
    const req = checkout('05');
    h.mock.control.fault('createSession', { lostAnswerMs: 1_000 });
    await expect(h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await waitFor(() => h.mock.control.sessionsFor(req.partnerReference)[0]?.checkout_status === 'expired', {
      what: 'the session abandoned',
    });
    const ack = await h.adapter.pushUssd(req);
    const [only, ...more] = h.mock.control.sessionsFor(req.partnerReference);
    expect(more).toEqual([]);
    expect(ack).toMatchObject({ accepted: true, providerSessionId: only!.id });
    // The push's outcome is that session's: the customer did not pay.
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: only!.id as string })).resolves.toMatchObject({
      providerState: 'canceled',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  it.each([500, 503, 429])('a %s from Wave is OperatorUnavailableError and creates nothing', async (status) => {
    const req = checkout('01');
    h.mock.control.fault('createSession', { status });
    await expect(h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    expect(h.mock.control.sessionsFor(req.partnerReference)).toHaveLength(0);
  });

  it('a hung status query times out as OperatorUnavailableError; the next query answers', async () => {
    const req = checkout('06');
    await h.adapter.pushUssd(req);
    h.mock.control.fault('searchSessions', { hangMs: 1_000 });
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: null })).rejects.toBeInstanceOf(
      OperatorUnavailableError,
    );
    await expect(h.adapter.queryStatus({ ...req, providerSessionId: null })).resolves.toMatchObject({
      found: true,
      providerState: 'PENDING',
    });
  });

  it('an unknown reference or session id is found: false', async () => {
    await expect(h.adapter.queryStatus({ ...checkout('01'), providerSessionId: null })).resolves.toMatchObject({
      found: false,
      providerState: 'PENDING',
    });
    await expect(h.adapter.queryStatus({ ...checkout('01'), providerSessionId: 'cos-nope' })).resolves.toMatchObject({
      found: false,
    });
  });

  it.each([
    ['a key of another form', 'not-a-wave-key', 'invalid-auth'],
    ['an unknown key', 'wave_ci_prod_someoneElse', 'no-matching-api-key'],
  ])("%s: Wave's 401, a plain Error (our credentials), never a refusal", async (_name, apiKey, code) => {
    const error = await h
      .adapterWith({ apiKey })
      .pushUssd(checkout('01'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorRefusedError);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toContain(code);
  });
});
