import { waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

let sys: System;
beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys.stop();
});

describe('merchant view of webhook deliveries', () => {
  it('lists each attempt of an event with its status code, latency and outcome', async () => {
    sys.receiver.status(503);
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: 'hooks-1',
      amount: 1000,
      customer_msisdn: CI_NUMBER('01'),
    });
    const id = res.body.data.transaction_id as string;
    await waitFor(async () => (await sys.db.webhookAttempt.count()) >= 2, { what: 'two failed attempts' });
    sys.receiver.status(200);
    const list = await waitFor(
      async () => {
        const r = await sys.api('GET', `/api/v1/webhook-events?transaction_id=${id}`);
        return r.body.data[0]?.status === 'DELIVERED' ? r.body.data : undefined;
      },
      { what: 'delivered event' },
    );
    expect(list).toHaveLength(1);
    const attempts = list[0].attempts as {
      attempt_no: number;
      status_code: number;
      success: boolean;
      latency_ms: number;
    }[];
    expect(attempts.at(-1)).toMatchObject({ status_code: 200, success: true });
    expect(attempts.slice(0, -1).every((a) => a.status_code === 503 && !a.success)).toBe(true);
    expect(attempts.map((a) => a.attempt_no)).toEqual(attempts.map((_, i) => i + 1));
    expect(list[0]).toMatchObject({
      event: 'transaction.status_changed',
      transaction_id: id,
      payload: { status: 'SUCCESS' },
    });
  });

  it('rejects a malformed filter with 400 naming the field', async () => {
    const r = await sys.api('GET', '/api/v1/webhook-events?transaction_id=nope');
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([expect.objectContaining({ field: 'transaction_id' })]);
  });
});
