import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createCashin, createCashout, transition } from '@mm/db/payments';
import { verifyLedger } from '@mm/db/ledger';
import { bullPrefix, cashoutRequests } from '@mm/queues';
import type { StaffRole } from '@mm/domain';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import { loggedIn as logInAs } from '../test-support/merchant-test-helpers.js';

describe('cash-out approvals in the back-office (decisions 7)', () => {
  let bo: BackofficeFixture;
  let merchantId: string;
  let queue: Queue;
  beforeAll(async () => {
    bo = await startBackofficeFixture();
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(bo.db, s);
    merchantId = (await createMerchant(bo.db, { name: 'Grande Boutique', webhookUrl: 'https://shop.example/hooks' }))
      .id;
    // 20 000 000 available in CI.
    for (let i = 0; i < 4; i++) {
      const c = await createCashin(bo.db, {
        merchantId,
        merchantOrderId: `fund-${randomUUID()}`,
        amount: 5_000_000,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250707000001',
        motif: null,
        returnUrl: null,
        notifyUrl: null,
        metadata: null,
        requestFingerprint: 'fp',
      });
      if (c.kind !== 'created') throw new Error('setup');
      for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const)
        await bo.db.$transaction((tx) => transition(tx, { transactionId: c.transaction.id, to, cause: 'setup' }));
    }
    queue = new Queue(cashoutRequests.name, { connection: bo.redis, prefix: bullPrefix(bo.prefix) });
  });
  afterAll(async () => {
    await queue.close();
    await bo.stop();
  });

  const loggedIn = (role: StaffRole) => logInAs(bo, role);

  async function awaiting(amount = 1_500_000): Promise<string> {
    const r = await createCashout(bo.db, {
      merchantId,
      merchantOrderId: `co-${randomUUID()}`,
      amount,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707123401',
      reason: 'paiement fournisseur',
      notifyUrl: null,
      requestFingerprint: 'fp',
      approval: 'required',
    });
    return r.transaction.id;
  }
  const statusOf = async (id: string) => (await bo.db.transaction.findUniqueOrThrow({ where: { id } })).status;
  const audits = (id: string) =>
    bo.db.auditEntry.findMany({ where: { targetType: 'transaction', targetId: id }, orderBy: { id: 'asc' } });
  const outboxRows = (id: string) =>
    bo.db.outbox.count({ where: { topic: cashoutRequests.name, payload: { path: ['transaction_id'], equals: id } } });

  it('lists the cash-outs awaiting approval to every role; only approvers and admins get the buttons', async () => {
    const id = await awaiting();
    const viewer = await loggedIn('viewer');
    const page = await viewer.client.get('/cashouts');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-cashout-id="${id}"`);
    expect(page.text).not.toContain(`action="/cashouts/${id}/approve"`);
    const approver = await loggedIn('approver');
    expect((await approver.client.get('/cashouts')).text).toContain(`action="/cashouts/${id}/approve"`);
  });

  it('a viewer cannot approve nor reject: 403, nothing moves, nothing queued, no audit row', async () => {
    const id = await awaiting();
    const { client } = await loggedIn('viewer');
    expect((await client.post(`/cashouts/${id}/approve`)).status).toBe(403);
    expect((await client.post(`/cashouts/${id}/reject`, { reason: 'not allowed' })).status).toBe(403);
    expect(await statusOf(id)).toBe('AWAITING_APPROVAL');
    expect(await outboxRows(id)).toBe(0);
    expect(await audits(id)).toEqual([]);
  });

  it('an approver approves: INITIATED, its operator request queued in Redis, one audit row; a second approval is refused', async () => {
    const id = await awaiting();
    const { staff, client } = await loggedIn('approver');
    const res = await client.post(`/cashouts/${id}/approve`);
    expect(res).toMatchObject({ status: 303, location: '/cashouts?done=approved' });
    expect(await statusOf(id)).toBe('INITIATED');
    expect(await outboxRows(id)).toBe(1);
    const row = await bo.db.outbox.findFirstOrThrow({
      where: { topic: cashoutRequests.name, payload: { path: ['transaction_id'], equals: id } },
    });
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
    expect(jobs.map((j) => j.data as { transaction_id: string; outbox_id: string })).toContainEqual({
      transaction_id: id,
      outbox_id: row.id,
    });
    const [audit] = await audits(id);
    expect(audit).toMatchObject({
      staffId: staff.id,
      actor: staff.email,
      action: 'cashout.approve',
      before: { status: 'AWAITING_APPROVAL', amount: 1_500_000, currency: 'XOF' },
      after: { status: 'INITIATED' },
    });
    const event = await bo.db.transactionEvent.findFirstOrThrow({
      where: { transactionId: id, toStatus: 'INITIATED' },
    });
    expect(event.detail).toEqual({ decided_by: staff.email });

    await client.get('/cashouts');
    const again = await client.post(`/cashouts/${id}/approve`);
    expect(again.status).toBe(409);
    expect(again.text).toContain('cannot be approved: it is INITIATED, not AWAITING_APPROVAL');
    expect(await outboxRows(id)).toBe(1);
    expect(await audits(id)).toHaveLength(1);
  });

  it('two approvers clicking at once: one approval, one operator request', async () => {
    const id = await awaiting();
    const a = await loggedIn('approver');
    const b = await loggedIn('admin');
    const results = await Promise.all([
      a.client.post(`/cashouts/${id}/approve`),
      b.client.post(`/cashouts/${id}/approve`),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
    expect(await outboxRows(id)).toBe(1);
    expect(await audits(id)).toHaveLength(1);
  });

  it('rejecting needs a reason; rejected, it is FAILED with the reservation released, and can no longer be approved', async () => {
    const id = await awaiting(2_000_000);
    const reserved = async () =>
      Number(
        (
          await bo.db.ledgerAccount.findFirstOrThrow({
            where: { merchantId, countryCode: 'CI', kind: 'MERCHANT_CASHOUT_RESERVED' },
          })
        ).balance,
      );
    const before = await reserved();
    const { client } = await loggedIn('approver');
    expect((await client.post(`/cashouts/${id}/reject`, { reason: ' ' })).status).toBe(400);
    expect(await statusOf(id)).toBe('AWAITING_APPROVAL');
    await client.get('/cashouts');
    expect(await client.post(`/cashouts/${id}/reject`, { reason: 'beneficiary not verified' })).toMatchObject({
      status: 303,
      location: '/cashouts?done=rejected',
    });
    const t = await bo.db.transaction.findUniqueOrThrow({ where: { id } });
    expect(t).toMatchObject({
      status: 'FAILED',
      failureCode: 'REJECTED_BY_APPROVER',
      failureReason: 'beneficiary not verified',
    });
    expect(await reserved()).toBe(before - 2_000_000);
    expect(await bo.db.webhookEvent.count({ where: { transactionId: id } })).toBe(1);
    await client.get('/cashouts');
    expect((await client.post(`/cashouts/${id}/approve`)).status).toBe(409);
    expect(await statusOf(id)).toBe('FAILED');
    expect(await outboxRows(id)).toBe(0);
    expect((await audits(id)).map((a) => a.action)).toEqual(['cashout.reject']);
    expect((await verifyLedger(bo.db)).problems).toEqual([]);
  });

  it('without the CSRF token an approval is refused and nothing moves', async () => {
    const id = await awaiting();
    const { client } = await loggedIn('approver');
    expect((await client.post(`/cashouts/${id}/approve`, { _csrf: null })).status).toBe(403);
    expect((await client.post(`/cashouts/${id}/approve`, { _csrf: 'forged' })).status).toBe(403);
    expect(await statusOf(id)).toBe('AWAITING_APPROVAL');
  });

  it('an unknown id or a cash-in id is not found', async () => {
    const { client } = await loggedIn('approver');
    expect((await client.post(`/cashouts/${randomUUID()}/approve`)).status).toBe(404);
    await client.get('/cashouts');
    expect((await client.post('/cashouts/not-a-uuid/approve')).status).toBe(404);
    await client.get('/cashouts');
    // joi's guid() took this spelling; the database would not.
    expect((await client.post(`/cashouts/(${randomUUID()})/approve`)).status).toBe(404);
    const cashin = await bo.db.transaction.findFirstOrThrow({ where: { merchantId, type: 'CASHIN' } });
    await client.get('/cashouts');
    expect((await client.post(`/cashouts/${cashin.id}/approve`)).status).toBe(404);
    expect(await statusOf(cashin.id)).toBe('SUCCESS');
  });
});
