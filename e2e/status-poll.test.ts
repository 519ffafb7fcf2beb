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
    const res = await sys.api('POST', '/api/v1/payments/cashin', { merchant_order_id: 'poll-1', amount: 2500, customer_msisdn: CI_NUMBER('55') });
    expect(res.body.data.status).toBe('PENDING');
    const id = res.body.data.transaction_id as string;
    // The bridge is down when the customer confirms: every callback attempt of the operator fails.
    await sys.stopBridge();
    const confirm = await sys.sandbox(`/sandbox/payments/${res.body.data.provider_reference}/confirm`, { method: 'POST' });
    expect(confirm.status).toBeLessThan(300);
    const done = await waitFor(async () => {
      const t = (await sys.api('GET', `/api/v1/payments/${id}`)).body.data;
      return t.status === 'SUCCESS' ? t : undefined;
    }, { what: 'SUCCESS through a status poll', timeoutMs: 20_000 });
    expect(done).toMatchObject({ provider_state: 'OK', provider_txn_status: '200' });
    const last = await sys.db.transactionEvent.findFirstOrThrow({ where: { transactionId: id }, orderBy: { id: 'desc' } });
    expect(last).toMatchObject({ fromStatus: 'PENDING', toStatus: 'SUCCESS', cause: 'status-poll:operator-result' });
  });

  it('leaves a cash-in the customer has not answered yet PENDING after a poll (only the expiry check expires)', async () => {
    await sys.startBridge();
    const res = await sys.api('POST', '/api/v1/payments/cashin', { merchant_order_id: 'poll-2', amount: 2500, customer_msisdn: CI_NUMBER('56') });
    const id = res.body.data.transaction_id as string;
    const poll = await waitFor(async () => {
      const row = await sys.db.outbox.findFirst({ where: { topic: 'expiry-checks', payload: { path: ['transaction_id'], equals: id }, completedAt: { not: null } } });
      return row ?? undefined;
    }, { what: 'the poll to run', timeoutMs: 10_000 });
    expect(poll.payload).toMatchObject({ kind: 'poll' });
    expect((await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status).toBe('PENDING');
  });
});
