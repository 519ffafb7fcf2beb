import { randomUUID } from 'node:crypto';
import { OperatorUnavailableError, type DisbursementRequest } from '@mm/operators';
import { API_TOKEN, startHarness, type Harness } from './test-support/harness.js';

describe('disbursements (POST /v1/disbursements), driven through SimulatorOperatorAdapter', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const auth = { Authorization: `Bearer ${API_TOKEN}` };
  const postDisbursement = (body: unknown, headers: Record<string, string> = auth) =>
    fetch(`${h.sim.url}/v1/disbursements`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const readDisbursement = (reference: string, headers: Record<string, string> = auth) =>
    fetch(`${h.sim.url}/v1/disbursements/${encodeURIComponent(reference)}`, { headers });
  const wireBody = (d: DisbursementRequest) => ({
    partner_reference: d.partnerReference,
    msisdn: d.msisdn,
    amount: d.amount,
    currency: d.currency,
    reason: d.reason,
  });
  async function listed(reference: string) {
    const body = (await (await h.sandbox(`/sandbox/disbursements`)).json()) as {
      disbursements: { partner_reference: string }[];
    };
    return body.disbursements.filter((d) => d.partner_reference === reference);
  }

  it('a disbursement to any other number is OK with a DB id, readable again by GET /v1/disbursements/:reference and listed', async () => {
    const disbursement = h.disbursement('42');
    const result = await h.adapter.disburse(disbursement);
    expect(result).toEqual({ state: 'OK', providerTxId: expect.stringMatching(/^DB\d+$/) });
    expect(h.sim.disbursementCount(disbursement.partnerReference)).toBe(1);

    const res = await readDisbursement(disbursement.partnerReference);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ state: 'OK', disbursement_id: result.state === 'OK' && result.providerTxId });
    expect(await listed(disbursement.partnerReference)).toEqual([
      {
        partner_reference: disbursement.partnerReference,
        msisdn: disbursement.msisdn,
        amount: 2500,
        currency: 'XOF',
        reason: 'Payout 7',
        answer: { state: 'OK', disbursement_id: result.state === 'OK' && result.providerTxId },
        disbursement_count: 1,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
  });

  it('the cash-in test numbers do not affect disbursements: 01, 02, 07, 08 and 10 are paid', async () => {
    for (const suffix of ['01', '02', '07', '08', '10']) {
      await expect(h.adapter.disburse(h.disbursement(suffix))).resolves.toMatchObject({ state: 'OK' });
    }
  });

  it.each([
    ['absent', undefined, null],
    ['null', null, null],
    ['empty', '', ''],
  ])('reason is optional on the wire: %s is paid and recorded as %j', async (_what, reason, recorded) => {
    const disbursement = h.disbursement('42');
    const res = await postDisbursement({ ...wireBody(disbursement), reason });
    expect(res.status).toBe(200);
    expect(await listed(disbursement.partnerReference)).toEqual([
      expect.objectContaining({ reason: recorded, answer: expect.objectContaining({ state: 'OK' }) }),
    ]);
  });

  it.each([
    ['11', 'BENEFICIARY_NOT_FOUND'],
    ['12', 'BENEFICIARY_LIMIT_EXCEEDED'],
  ])(
    'a disbursement to a number ending %s is FAILED / %s (200 on the wire), recorded and readable',
    async (suffix, reason) => {
      const disbursement = h.disbursement(suffix);
      await expect(h.adapter.disburse(disbursement)).resolves.toEqual({ state: 'FAILED', reason });
      expect(h.sim.disbursementCount(disbursement.partnerReference)).toBe(1);

      const raw = await postDisbursement(wireBody(h.disbursement(suffix)));
      expect(raw.status).toBe(200);
      expect(await raw.json()).toEqual({ state: 'FAILED', reason });
      const read = await readDisbursement(disbursement.partnerReference);
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual({ state: 'FAILED', reason });
      expect(await listed(disbursement.partnerReference)).toEqual([
        expect.objectContaining({ answer: { state: 'FAILED', reason }, disbursement_count: 1 }),
      ]);
    },
  );

  it('a repeated disbursement with the same reference answers the same and pays once, even concurrent or with other fields', async () => {
    const disbursement = h.disbursement('42', { amount: 600 });
    const answers = await Promise.all([
      h.adapter.disburse(disbursement),
      h.adapter.disburse(disbursement),
      // Even to a number that would fail: the reference is the payment, and it was decided first.
      h.adapter.disburse({ ...disbursement, amount: 900, msisdn: '+2250700000011' }),
    ]);
    expect(answers[0]).toMatchObject({ state: 'OK' });
    expect(answers).toEqual([answers[0], answers[0], answers[0]]);

    const raw = await postDisbursement(wireBody(disbursement));
    expect(raw.status).toBe(200);
    expect(raw.headers.get('idempotent-replayed')).toBe('true');
    expect(await raw.json()).toEqual({
      state: 'OK',
      disbursement_id: answers[0]!.state === 'OK' && answers[0]!.providerTxId,
    });

    expect(h.sim.disbursementCount(disbursement.partnerReference)).toBe(1);
    expect(await listed(disbursement.partnerReference)).toEqual([
      expect.objectContaining({ amount: 600, disbursement_count: 1 }),
    ]);
  });

  it('a first answer is not marked as a replay, and a FAILED answer is replayed as FAILED', async () => {
    const disbursement = h.disbursement('12');
    const first = await postDisbursement(wireBody(disbursement));
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await postDisbursement({ ...wireBody(disbursement), msisdn: '+2250700000042' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual({ state: 'FAILED', reason: 'BENEFICIARY_LIMIT_EXCEEDED' });
    expect(h.sim.disbursementCount(disbursement.partnerReference)).toBe(1);
  });

  it.each([
    ['a missing partner_reference', { partner_reference: undefined }],
    ['an empty partner_reference', { partner_reference: '' }],
    ['a missing msisdn', { msisdn: undefined }],
    ['an msisdn that is not digits', { msisdn: '+225 07 00 00 00 42' }],
    ['a zero amount', { amount: 0 }],
    ['a negative amount', { amount: -5 }],
    ['an amount with three decimals', { amount: 1.005 }],
    ['an amount given as a string', { amount: '100' }],
    ['a lowercase currency', { currency: 'xof' }],
    ['a reason that is not a string', { reason: 42 }],
    ['a reason longer than 255', { reason: 'x'.repeat(256) }],
  ])('answers 400 invalid_request to %s, and records nothing', async (_what, change) => {
    const body = { ...wireBody(h.disbursement('42')), ...change };
    const res = await postDisbursement(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request', message: expect.any(String) });
    if (typeof body.partner_reference === 'string' && body.partner_reference !== '') {
      expect(h.sim.disbursementCount(body.partner_reference)).toBe(0);
      expect((await readDisbursement(body.partner_reference)).status).toBe(404);
      expect(await listed(body.partner_reference)).toEqual([]);
    }
  });

  it('a 400 is a plain Error from the adapter (our bug, retrying will not help), and the fixed request is then paid once', async () => {
    const disbursement = h.disbursement('42', { amount: 10.001 });
    const error = await h.adapter.disburse(disbursement).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toMatch(/400/);
    expect(h.sim.disbursementCount(disbursement.partnerReference)).toBe(0);
    await expect(h.adapter.disburse({ ...disbursement, amount: 10 })).resolves.toMatchObject({ state: 'OK' });
    expect(h.sim.disbursementCount(disbursement.partnerReference)).toBe(1);
  });

  it('answers 401 without the bearer token, to the disbursement and its read, and pays nothing', async () => {
    const disbursement = h.disbursement('42');
    expect((await postDisbursement(wireBody(disbursement), {})).status).toBe(401);
    expect((await postDisbursement(wireBody(disbursement), { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await readDisbursement(disbursement.partnerReference, {})).status).toBe(401);
    const error = await h
      .adapterWith({ apiToken: 'wrong' })
      .disburse(disbursement)
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toMatch(/401/);
    expect(h.sim.disbursementCount(disbursement.partnerReference)).toBe(0);
  });

  it('GET /v1/disbursements/:reference answers 404 not_found for a reference never disbursed', async () => {
    const res = await readDisbursement(`co_${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not_found' });
  });
});
