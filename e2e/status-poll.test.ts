import { waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

let sys: System;
beforeAll(async () => {
  // Polls 1.5 s after PENDING; expiry far away, so only a poll can settle the cash-in in this test.
  sys = await startSystem({ confirmationTimeoutS: 60, bridgeEnv: { CASHIN_STATUS_POLL_S: '1.5' } });
});
afterAll(async () => {
  await sys.stop();
});

describe('status polling of pending cash-ins', () => {
  it('settles a cash-in whose operator callback was lost, long before the confirmation delay ends', async () => {
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: 'poll-1',
      amount: 2500,
      customer_msisdn: CI_NUMBER('55'),
    });
    expect(res.body.data.status).toBe('PENDING');
    const id = res.body.data.transaction_id as string;
    // The bridge is down when the customer confirms: every callback attempt of the operator fails.
    await sys.stopBridge();
    const confirm = await sys.sandbox(`/sandbox/payments/${res.body.data.provider_reference}/confirm`, {
      method: 'POST',
    });
    expect(confirm.status).toBeLessThan(300);
    const done = await waitFor(
      async () => {
        const t = (await sys.api('GET', `/api/v1/payments/${id}`)).body.data;
        return t.status === 'SUCCESS' ? t : undefined;
      },
      { what: 'SUCCESS through a status poll', timeoutMs: 20_000 },
    );
    expect(done).toMatchObject({ provider_state: 'OK', provider_txn_status: '200' });
    const last = await sys.db.transactionEvent.findFirstOrThrow({
      where: { transactionId: id },
      orderBy: { id: 'desc' },
    });
    expect(last).toMatchObject({ fromStatus: 'PENDING', toStatus: 'SUCCESS', cause: 'status-poll:operator-result' });
  });

  const checksOf = (id: string) =>
    sys.db.outbox.findMany({ where: { topic: 'expiry-checks', payload: { path: ['transaction_id'], equals: id } } });

  it('leaves a cash-in the customer has not answered yet PENDING after a poll, its one check moved on to the expiry', async () => {
    await sys.startBridge();
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: 'poll-2',
      amount: 2500,
      customer_msisdn: CI_NUMBER('56'),
    });
    const id = res.body.data.transaction_id as string;
    const [check] = await waitFor(
      async () => {
        const rows = await checksOf(id);
        return rows.length === 1 && rows[0]!.run === 1 ? rows : undefined;
      },
      { what: 'the poll to run and schedule the expiry', timeoutMs: 10_000 },
    );
    // Only the expiry check expires: the poll changed nothing but the row's next check.
    expect(check).toMatchObject({ completedAt: null, payload: { transaction_id: id, kind: 'expiry' } });
    const expiresAt = (await sys.db.transaction.findUniqueOrThrow({ where: { id } })).expiresAt;
    expect(check!.availableAt).toEqual(expiresAt);
    expect((await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status).toBe('PENDING');
  });

  it('a cash-in that ended before its first poll leaves one check behind, which the poll ends', async () => {
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: 'poll-3',
      amount: 2500,
      customer_msisdn: CI_NUMBER('01'),
    });
    const id = res.body.data.transaction_id as string;
    const [check] = await waitFor(
      async () => {
        const rows = await checksOf(id);
        return rows.length > 0 && rows.every((r) => r.completedAt !== null) ? rows : undefined;
      },
      { what: 'the poll to find the cash-in ended', timeoutMs: 10_000 },
    );
    expect((await checksOf(id)).map((r) => [r.run, (r.payload as { kind: string }).kind])).toEqual([[0, 'poll']]);
    expect(check!.payload).toEqual({ transaction_id: id, kind: 'poll', next_polls: [] });
    expect((await sys.db.transaction.findUniqueOrThrow({ where: { id } })).status).toBe('SUCCESS');
  });
});
