import { waitFor } from '@mm/testing';
import { TestClient } from '@mm/testing';
import { startSystemBackoffice, STAFF_PASSWORD } from './support/backoffice.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import { newOrderId } from './support/contract.js';

/**
 * A refused webhook target (security review point 7): the merchant's API tells why in generic words,
 * never the address its URL resolved to; the back-office shows staff the detail.
 */
const GENERIC = 'target refused: the URL must be http(s) and its host must resolve to public addresses only';
let sys: System;
let backoffice: Awaited<ReturnType<typeof startSystemBackoffice>>;

beforeAll(async () => {
  // As in production: the merchant's webhook URL (the suite's receiver on 127.0.0.1) is refused.
  sys = await startSystem({ dispatcherEnv: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } });
  backoffice = await startSystemBackoffice(sys);
}, 60_000);
afterAll(async () => {
  await backoffice?.stop();
  await sys?.stop();
});

describe('a refused webhook target', () => {
  it('GET /webhook-events shows the generic reason; the back-office webhooks and transaction pages show the address', async () => {
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: newOrderId('refused'),
      amount: 1000,
      customer_msisdn: CI_NUMBER('01'),
    });
    const id = res.body.data.transaction_id as string;
    const [event] = await waitFor(
      async () => {
        const r = await sys.api('GET', `/api/v1/webhook-events?transaction_id=${id}`);
        return r.body.data[0]?.status === 'ABANDONED' ? r.body.data : undefined;
      },
      { what: 'the SUCCESS webhook abandoned', timeoutMs: 20_000 },
    );

    expect(event.attempts).toHaveLength(7);
    for (const a of event.attempts) expect(a).toMatchObject({ status_code: null, success: false, error: GENERIC });
    // Nothing in the merchant's answer names the address or says how the name resolved.
    expect(JSON.stringify(event.attempts)).not.toMatch(/127\.0\.0\.1|loopback|resolve \S+:/);
    expect(sys.receiver.received).toHaveLength(0);

    const email = await backoffice.staff('viewer');
    const staff = new TestClient(backoffice.url);
    expect((await staff.logIn(email, STAFF_PASSWORD)).status).toBe(303);
    const page = await staff.get('/webhooks?problem=abandoned');
    const row = new RegExp(`<tr data-event-id="${event.event_id}">[\\s\\S]*?</tr>`).exec(page.text)?.[0];
    expect(row).toContain('refused target 127.0.0.1: 127.0.0.1 is a loopback address');
    const detail = await staff.get(`/transactions/${id}`);
    expect(detail.text).toContain('Error: refused target 127.0.0.1: 127.0.0.1 is a loopback address');
  });
});
