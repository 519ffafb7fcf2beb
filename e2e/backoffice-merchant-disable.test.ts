import { signedClient } from '@mm/testing';
import { TestClient, type PageResponse } from '@mm/testing';
import { startSystemBackoffice, STAFF_PASSWORD } from './support/backoffice.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import { expectError, newOrderId, onceHeard, withoutWrites } from './support/contract.js';

/**
 * Issue 6, API side of the back-office: what staff change in /merchants takes effect at the gateway on
 * the merchant's very next request (decisions 2): a disabled merchant is refused with 403
 * MERCHANT_DISABLED, a key issued in the back-office works at once, a revoked one answers 401 INVALID_API_KEY.
 */
const CASHIN = '/api/v1/payments/cashin';
// Numbers ending 06 never confirm: an accepted cash-in stays PENDING and writes nothing more.
const cashinBody = () => ({ merchant_order_id: newOrderId('bo'), amount: 5000, customer_msisdn: CI_NUMBER('06') });

let sys: System;
let backoffice: Awaited<ReturnType<typeof startSystemBackoffice>>;

beforeAll(async () => {
  sys = await startSystem();
  // The same database, Redis prefix and master key as the gateway: keys sealed here open there.
  backoffice = await startSystemBackoffice(sys);
}, 60_000);
afterAll(async () => {
  await backoffice?.stop();
  await sys?.stop();
});

async function logIn(role: 'admin' | 'approver' | 'viewer'): Promise<TestClient> {
  const email = await backoffice.staff(role);
  const client = new TestClient(backoffice.url);
  expect((await client.logIn(email, STAFF_PASSWORD)).status).toBe(303);
  return client;
}

/** The key shown once on the page answering a key creation or rotation. */
function issuedKey(page: PageResponse): { apiKey: string; apiSecret: string } {
  expect(page.status).toBe(201);
  return {
    apiKey: /<code id="issued-api-key">([^<]+)<\/code>/.exec(page.text)![1]!,
    apiSecret: /<code id="issued-api-secret">([^<]+)<\/code>/.exec(page.text)![1]!,
  };
}

describe('back-office merchant changes, seen by the gateway', () => {
  it('a merchant disabled in the back-office is refused with 403 MERCHANT_DISABLED, and accepted again once enabled', async () => {
    expect((await sys.api('GET', '/api/v1/balances')).status).toBe(200);
    const admin = await logIn('admin');
    const page = await admin.get(`/merchants/${sys.merchant.id}`);
    expect(page.text).toContain(`action="/merchants/${sys.merchant.id}/disable"`);

    expect(await admin.post(`/merchants/${sys.merchant.id}/disable`)).toMatchObject({
      status: 303,
      location: `/merchants/${sys.merchant.id}?done=disabled`,
    });
    expectError(await onceHeard(() => sys.api('GET', '/api/v1/balances'), 403), 403, 'MERCHANT_DISABLED');
    expectError(await withoutWrites(sys, () => sys.api('POST', CASHIN, cashinBody())), 403, 'MERCHANT_DISABLED');

    await admin.get(`/merchants/${sys.merchant.id}`);
    expect(await admin.post(`/merchants/${sys.merchant.id}/enable`)).toMatchObject({
      status: 303,
      location: `/merchants/${sys.merchant.id}?done=enabled`,
    });
    expect((await onceHeard(() => sys.api('GET', '/api/v1/balances'), 200)).status).toBe(200);
    expect((await sys.api('POST', CASHIN, cashinBody())).status).toBe(202);
  });

  it('a viewer or an approver cannot disable the merchant: 403, and the gateway keeps accepting it', async () => {
    for (const role of ['viewer', 'approver'] as const) {
      const client = await logIn(role);
      await client.get(`/merchants/${sys.merchant.id}`);
      expect((await client.post(`/merchants/${sys.merchant.id}/disable`)).status).toBe(403);
      expect((await sys.api('GET', '/api/v1/balances')).status).toBe(200);
    }
  });

  it('a key issued in the back-office works at once; rotated, the old one works during the grace; revoked, it answers 401 INVALID_API_KEY', async () => {
    const admin = await logIn('admin');
    await admin.get(`/merchants/${sys.merchant.id}`);
    const first = issuedKey(await admin.post(`/merchants/${sys.merchant.id}/keys`));
    const firstApi = signedClient(sys.gatewayUrl, first.apiKey, first.apiSecret);
    expect((await firstApi('GET', '/api/v1/balances')).status).toBe(200);

    await admin.get(`/merchants/${sys.merchant.id}`);
    const second = issuedKey(
      await admin.post(`/merchants/${sys.merchant.id}/keys/${first.apiKey}/rotate`, { grace_s: '3600' }),
    );
    const secondApi = signedClient(sys.gatewayUrl, second.apiKey, second.apiSecret);
    expect((await secondApi('GET', '/api/v1/balances')).status).toBe(200);
    expect((await firstApi('GET', '/api/v1/balances')).status).toBe(200);

    await admin.get(`/merchants/${sys.merchant.id}`);
    expect(await admin.post(`/merchants/${sys.merchant.id}/keys/${first.apiKey}/revoke`)).toMatchObject({
      status: 303,
    });
    expectError(await onceHeard(() => firstApi('GET', '/api/v1/balances'), 401), 401, 'INVALID_API_KEY');
    expectError(await withoutWrites(sys, () => firstApi('POST', CASHIN, cashinBody())), 401, 'INVALID_API_KEY');
    // The merchant's other keys are untouched.
    expect((await secondApi('GET', '/api/v1/balances')).status).toBe(200);
    expect((await sys.api('GET', '/api/v1/balances')).status).toBe(200);

    await admin.get(`/merchants/${sys.merchant.id}`);
    expect(await admin.post(`/merchants/${sys.merchant.id}/keys/${second.apiKey}/revoke`)).toMatchObject({
      status: 303,
    });
    expectError(await onceHeard(() => secondApi('GET', '/api/v1/balances'), 401), 401, 'INVALID_API_KEY');
  });
});
