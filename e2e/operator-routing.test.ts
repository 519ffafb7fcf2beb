import { markOperatorAccountDown, markOperatorAccountUp, setOperatorAccountEnabled } from '@mm/db/operator-accounts';
import { expectError, newOrderId, onceHeard, withoutWrites } from './support/contract.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

let sys: System;
beforeAll(async () => {
  sys = await startSystem({ gatewayEnv: { DISBURSEMENT_ENABLED: 'true' } });
});
afterAll(async () => {
  await sys.stop();
});

// Numbers ending 06 never confirm: no cash-in of this file moves (and writes) while another test counts rows.
const CASHIN = '/api/v1/payments/cashin';
const CASHOUT = '/api/v1/payments/cashout';
const cashin = (msisdn: string, extra: Record<string, unknown> = {}) =>
  sys.api('POST', CASHIN, { merchant_order_id: newOrderId('route'), amount: 1000, customer_msisdn: msisdn, ...extra });

describe('operator routing of a cash-in', () => {
  it('sends the test numbers to the simulator by their longer prefix and records the operator', async () => {
    const res = await cashin(CI_NUMBER('06'));
    expect(res.status).toBe(202);
    const row = await sys.db.transaction.findUniqueOrThrow({ where: { id: res.body.data.transaction_id } });
    expect(row.operator).toBe('SIMULATOR');
  });

  it("in a sandbox, sends a number no operator account serves (Moov) to the subsidiary's simulator (live: e2e/deployment-mode.test.ts)", async () => {
    const res = await cashin('+2250112345606');
    expect(res.status).toBe(202);
    expect((await sys.db.transaction.findUniqueOrThrow({ where: { id: res.body.data.transaction_id } })).operator).toBe(
      'SIMULATOR',
    );
  });

  it('answers 503 OPERATOR_UNAVAILABLE with Retry-After when the operator serving the number is not enabled, writing nothing', async () => {
    // MTN Côte d'Ivoire is seeded disabled until an admin configures it.
    const res = await withoutWrites(sys, () => cashin('+2250512345601'));
    expectError(res, 503, 'OPERATOR_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBe('60');
  });

  it('takes the operator named in the body, and refuses one the subsidiary has no account with', async () => {
    const named = await withoutWrites(sys, () => cashin(CI_NUMBER('06'), { operator: 'WAVE' }));
    expectError(named, 503, 'OPERATOR_UNAVAILABLE');
    expectError(
      await withoutWrites(sys, () => cashin(CI_NUMBER('06'), { operator: 'MOOV' })),
      422,
      'OPERATOR_NOT_SUPPORTED',
    );
    const simulator = await cashin('+2250512345606', { operator: 'SIMULATOR' });
    expect(simulator.status).toBe(202);
    expect(
      (await sys.db.transaction.findUniqueOrThrow({ where: { id: simulator.body.data.transaction_id } })).operator,
    ).toBe('SIMULATOR');
  });

  it('refuses an operator name outside the list as a validation error', async () => {
    const res = await withoutWrites(sys, () => cashin(CI_NUMBER('06'), { operator: 'orange' }));
    expectError(res, 400, 'VALIDATION_ERROR');
  });

  it('answers 503 while the account is marked down and takes cash-ins again once it is up, without a restart', async () => {
    await markOperatorAccountDown(sys.db, 'CI', 'SIMULATOR', 'test outage');
    try {
      const down = await onceHeard(() => cashin(CI_NUMBER('06')), 503);
      expectError(down, 503, 'OPERATOR_UNAVAILABLE');
      expect(down.body.error.message).toMatch(/marked down/);
    } finally {
      await markOperatorAccountUp(sys.db, 'CI', 'SIMULATOR');
    }
    await onceHeard(() => cashin(CI_NUMBER('06')), 202);
  });

  it('replays an order already recorded even while its operator is unavailable', async () => {
    const body = { merchant_order_id: newOrderId('replay'), amount: 1000, customer_msisdn: CI_NUMBER('06') };
    const first = await sys.api('POST', CASHIN, body);
    expect(first.status).toBe(202);
    await setOperatorAccountEnabled(sys.db, 'CI', 'SIMULATOR', false);
    try {
      const again = await onceHeard(() => sys.api('POST', CASHIN, body), 200);
      expect(again.body.data.transaction_id).toBe(first.body.data.transaction_id);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await setOperatorAccountEnabled(sys.db, 'CI', 'SIMULATOR', true);
    }
  });
});

describe('operator routing of a cash-out', () => {
  it('routes the beneficiary number the same way: 503 for a disabled operator, nothing written (422 for Moov, live: e2e/deployment-mode.test.ts)', async () => {
    const cashout = (msisdn: string) =>
      sys.api('POST', CASHOUT, { merchant_order_id: newOrderId('co-route'), amount: 1000, beneficiary_msisdn: msisdn });
    expectError(await withoutWrites(sys, () => cashout('+2250512345601')), 503, 'OPERATOR_UNAVAILABLE');
  });
});
