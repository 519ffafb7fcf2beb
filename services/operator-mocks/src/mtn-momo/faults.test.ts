import { OperatorUnavailableError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { startMtnHarness, type MtnHarness } from './test-harness.js';

describe('MTN MoMo failures: 5xx, timeouts, unknown outcomes resolved by status queries', () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => h.mock.control.reset());

  it.each([500, 502, 503, 429, 408])(
    'a %s to the push is an unknown outcome: OperatorUnavailableError',
    async (status) => {
      h.mock.control.fault('requesttopay', { status });
      await expect(h.adapter.pushUssd(h.request('01'))).rejects.toBeInstanceOf(OperatorUnavailableError);
    },
  );

  it('500 INTERNAL_PROCESSING_ERROR to a push is an outage, not a refusal (only the request-refusing codes are)', async () => {
    h.mock.control.fault('requesttopay', { status: 500, body: { code: 'INTERNAL_PROCESSING_ERROR', message: 'x' } });
    await expect(h.adapter.pushUssd(h.request('01'))).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('a 400 to the push is a refusal of the request (OperatorRefusedError)', async () => {
    h.mock.control.fault('requesttopay', { status: 400, body: { code: 'INVALID_REQUEST', message: 'bad' } });
    await expect(h.adapter.pushUssd(h.request('01'))).rejects.toMatchObject({
      name: 'OperatorRefusedError',
      operation: 'push',
      httpStatus: 400,
    });
  });

  it('a push MTN registered but answered too late: unavailable, found by the status query, and a retry adopts it (409) without pushing twice', async () => {
    const adapter = h.adapterWith({ timeoutMs: 150 });
    h.mock.control.fault('requesttopay', { hangMs: 600, afterProcessing: true });
    const req = h.request('01');
    await expect(adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(adapter.queryStatus(h.lookup(req))).resolves.toMatchObject({ found: true });
    await expect(adapter.pushUssd(req)).resolves.toMatchObject({ accepted: true });
    expect(h.record(req.partnerReference)!.posts).toBe(2);
    await waitFor(async () => (await adapter.queryStatus(h.lookup(req))).providerState === 'OK', { what: 'OK' });
  });

  it('a push answered 500 after MTN created it: the retry gets 409 and adopts the request', async () => {
    h.mock.control.fault('requesttopay', { status: 500, afterProcessing: true });
    const req = h.request('01');
    await expect(h.adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(h.adapter.pushUssd(req)).resolves.toMatchObject({ accepted: true });
    expect(h.record(req.partnerReference)!.posts).toBe(2);
  });

  it('a push that timed out before MTN saw it: not found by status, the retry creates it', async () => {
    const adapter = h.adapterWith({ timeoutMs: 150 });
    h.mock.control.fault('requesttopay', { hangMs: 600 });
    const req = h.request('06');
    await expect(adapter.pushUssd(req)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(adapter.queryStatus(h.lookup(req))).resolves.toMatchObject({ found: false });
    await expect(adapter.pushUssd(req)).resolves.toMatchObject({ accepted: true });
    expect(h.record(req.partnerReference)!.posts).toBe(1);
  });

  it('a status query answering 503 or hanging is OperatorUnavailableError; the next one answers', async () => {
    const adapter = h.adapterWith({ timeoutMs: 150 });
    const req = h.request('01');
    await adapter.pushUssd(req);
    h.mock.control.fault('requesttopay-status', { status: 503 });
    await expect(adapter.queryStatus(h.lookup(req))).rejects.toBeInstanceOf(OperatorUnavailableError);
    h.mock.control.fault('requesttopay-status', { hangMs: 600 });
    await expect(adapter.queryStatus(h.lookup(req))).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(adapter.queryStatus(h.lookup(req))).resolves.toMatchObject({ found: true });
  });

  it('a status answer outside the protocol (an undocumented status, a 404 without RESOURCE_NOT_FOUND) decides nothing', async () => {
    const req = h.request('01');
    h.mock.control.fault('requesttopay-status', { status: 200, body: { status: 'WEIRD' } });
    await expect(h.adapter.queryStatus(h.lookup(req))).rejects.toBeInstanceOf(OperatorUnavailableError);
    h.mock.control.fault('requesttopay-status', { status: 404, body: { message: 'no route' } });
    await expect(h.adapter.queryStatus(h.lookup(req))).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('the /_mock control routes queue faults over HTTP', async () => {
    const res = await fetch(`${h.mock.url}/_mock/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operation: 'requesttopay', status: 503 }),
    });
    expect(res.status).toBe(204);
    await expect(h.adapter.pushUssd(h.request('01'))).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(h.adapter.pushUssd(h.request('01'))).resolves.toMatchObject({ accepted: true });
  });
});
