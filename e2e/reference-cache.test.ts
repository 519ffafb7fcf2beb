import pg from 'pg';
import { createApiKey, revokeApiKey, setSubsidiaryActive } from '@mm/db/merchants';
import { signedClient, waitFor } from '@mm/testing';
import { expectError, newOrderId, onceHeard } from './support/contract.js';
import { startSystem, type System } from './support/system.js';

/**
 * The gateway keeps API keys (with their merchant's status) and active subsidiaries in memory and drops
 * them when PostgreSQL notifies a change (migration reference_change_notify). Its 60 s TTL is far above
 * every deadline here: only the notifications can make these tests pass.
 */
let sys: System;
beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys.stop();
});

const CASHIN = '/api/v1/payments/cashin';
const senegal = () => ({ merchant_order_id: newOrderId('sn'), amount: 1000, customer_msisdn: '+221771234501' });

async function listeningGauge(): Promise<string | undefined> {
  const text = await (await fetch(`${sys.internalUrls.gateway}/metrics`)).text();
  return /^mm_reference_changes_listening\{[^}]*\} (\d)$/m.exec(text)?.[1];
}

describe("the gateway's memory of keys and subsidiaries", () => {
  it('refuses cash-ins to a subsidiary deactivated after it served one (422 COUNTRY_NOT_SUPPORTED), and accepts them once reactivated', async () => {
    expect((await sys.api('POST', CASHIN, senegal())).status).toBe(202);
    await setSubsidiaryActive(sys.db, 'SN', false);
    try {
      expectError(await onceHeard(() => sys.api('POST', CASHIN, senegal()), 422), 422, 'COUNTRY_NOT_SUPPORTED');
    } finally {
      await setSubsidiaryActive(sys.db, 'SN', true);
    }
    expect((await onceHeard(() => sys.api('POST', CASHIN, senegal()), 202)).status).toBe(202);
  });

  it('listens again after losing its LISTEN connection (gauge 1, 0, 1) and then still hears a revocation', async () => {
    const key = await createApiKey(sys.db, sys.box, sys.merchant.id);
    const api = signedClient(sys.gatewayUrl, key.apiKey, key.apiSecret);
    expect((await onceHeard(() => api('GET', '/api/v1/balances'), 200)).status).toBe(200);
    expect(await listeningGauge()).toBe('1');

    // What a database restart or failover does to the connections: the gateway's and the dispatcher's, and
    // those of the bridge, expiry and refund workers (their operator accounts).
    const admin = new pg.Client({ connectionString: sys.database.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mm-reference-changes' AND datname = current_database()`,
      );
      expect(rowCount).toBe(5);
    } finally {
      await admin.end();
    }
    await waitFor(async () => (await listeningGauge()) === '0', { timeoutMs: 5000, what: 'the gauge to say 0' });
    await waitFor(async () => (await listeningGauge()) === '1', {
      timeoutMs: 5000,
      what: 'the gateway to listen again',
    });

    expect((await api('GET', '/api/v1/balances')).status).toBe(200);
    expect(await revokeApiKey(sys.db, key.apiKey)).toBe(true);
    expectError(await onceHeard(() => api('GET', '/api/v1/balances'), 401), 401, 'INVALID_API_KEY');
  });
});
