import { OperatorUnavailableError } from '@mm/operators';
import { startHarness, type Harness } from './test-support/harness.js';
import { waitFor } from '@mm/testing';

describe('scripted test numbers (decisions.md section 11), driven through SimulatorOperatorAdapter', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  async function callbackResult(reference: string) {
    const [first] = await waitFor(() => h.receiver.for(reference).length > 0 && h.receiver.for(reference), {
      what: `callback for ${reference}`,
    });
    return h.adapter.parseCallback(first!.rawBody, first!.headers, Date.now());
  }

  it.each([
    ['01', 'OK', '200', null],
    ['02', 'canceled', '54321', '60019'],
    ['03', 'canceled', '54321', '00017'],
    ['04', 'canceled', '54321', '100004'],
    ['05', 'canceled', null, null],
  ])(
    'number ending %s is accepted, then ends %s / %s / %s by callback and by status query',
    async (suffix, state, txnStatus, reason) => {
      const req = h.request(suffix);
      const ack = await h.adapter.pushUssd(req);
      expect(ack).toEqual({ accepted: true, providerSessionId: expect.stringMatching(/^SES-/) });

      const callback = await callbackResult(req.partnerReference);
      expect(callback).toMatchObject({
        partnerReference: req.partnerReference,
        providerSessionId: ack.accepted && ack.providerSessionId,
        providerState: state,
        providerTxnStatus: txnStatus,
        failureReason: reason,
      });
      expect(callback?.providerTxId ?? null).toEqual(state === 'OK' ? expect.stringMatching(/^MP\d+$/) : null);

      const status = await h.adapter.queryStatus(req);
      expect(status).toEqual({
        found: true,
        providerState: state,
        providerTxnStatus: txnStatus,
        providerTxId: callback?.providerTxId,
        failureReason: reason,
      });
    },
  );

  it('number ending 06 is accepted and stays PENDING while the others have long been decided', async () => {
    const never = h.request('06');
    const soon = h.request('01');
    await h.adapter.pushUssd(never);
    await h.adapter.pushUssd(soon);
    await callbackResult(soon.partnerReference);
    await expect(h.adapter.queryStatus(never)).resolves.toEqual({
      found: true,
      providerState: 'PENDING',
      providerTxnStatus: null,
      providerTxId: null,
      failureReason: null,
    });
    expect(h.receiver.for(never.partnerReference)).toHaveLength(0);
  });

  it('number ending 07 is rejected at push time (KO / 40001), and the status query says KO too', async () => {
    const req = h.request('07');
    await expect(h.adapter.pushUssd(req)).resolves.toEqual({
      accepted: false,
      providerState: 'KO',
      providerTxnStatus: '40001',
    });
    await expect(h.adapter.queryStatus(req)).resolves.toEqual({
      found: true,
      providerState: 'KO',
      providerTxnStatus: '40001',
      providerTxId: null,
      failureReason: null,
    });
    expect(h.sim.pushCount(req.partnerReference)).toBe(1);
  });

  it('number ending 08 makes pushUssd throw OperatorUnavailableError when the operator does not answer in time, and nothing is registered', async () => {
    const req = h.request('08');
    const impatient = h.adapterWith({ timeoutMs: 100 });
    await expect(impatient.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ found: false, providerState: 'PENDING' });
    expect(h.sim.pushCount(req.partnerReference)).toBe(0);
  });

  it('number ending 08 answers 504 after hangMs to a caller that waits longer, which is also OperatorUnavailableError', async () => {
    const patient = h.adapterWith({ timeoutMs: 3_000 });
    const error = await patient.pushUssd(h.request('08')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toMatch(/answered 504/);
  });

  it('number ending 09 stays PENDING past the normal outcome delay, then confirms OK / 200 after lateConfirmDelayMs', async () => {
    const late = h.request('09');
    const soon = h.request('01');
    const pushedAt = Date.now();
    await h.adapter.pushUssd(late);
    await h.adapter.pushUssd(soon);
    await callbackResult(soon.partnerReference);
    await expect(h.adapter.queryStatus(late)).resolves.toMatchObject({ providerState: 'PENDING' });

    const callback = await callbackResult(late.partnerReference);
    expect(Date.now() - pushedAt).toBeGreaterThanOrEqual(800);
    expect(callback).toMatchObject({
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.stringMatching(/^MP/),
    });
    await expect(h.adapter.queryStatus(late)).resolves.toMatchObject({
      providerState: 'OK',
      providerTxId: callback?.providerTxId,
    });
  });

  it('a number without a scripted outcome stays PENDING until a person answers on the phone', async () => {
    const req = h.request('42');
    await h.adapter.pushUssd(req);
    const soon = h.request('01');
    await h.adapter.pushUssd(soon);
    await callbackResult(soon.partnerReference);
    await expect(h.adapter.queryStatus(req)).resolves.toMatchObject({ providerState: 'PENDING' });
  });
});
