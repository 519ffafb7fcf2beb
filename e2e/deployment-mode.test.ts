import {
  setOperatorAccountCredentials,
  setOperatorAccountEnabled,
  upsertOperatorAccount,
} from '@mm/db/operator-accounts';
import { waitFor } from '@mm/testing';
import { expectError, newOrderId, withoutWrites } from './support/contract.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * DEPLOYMENT_MODE (docs/deployment.md, "Sandbox or live"): a sandbox sends every number to the simulator
 * or a contract mock and holds no account set up for an operator's live system; a live deployment sends
 * nothing to the simulator. Both refusals at a service's start, both routings at the gateway, and the
 * bridge's refusal of an account changed behind the services' back.
 */
let sys: System;
beforeAll(async () => {
  sys = await startSystem({ gatewayEnv: { DISBURSEMENT_ENABLED: 'true' } });
});
afterAll(async () => {
  await sys.stop();
});

const SIMULATORS = ['CI', 'SN', 'CM'];
const cashinBody = (msisdn: string, extra: Record<string, unknown> = {}) => ({
  merchant_order_id: newOrderId('mode'),
  amount: 1000,
  customer_msisdn: msisdn,
  ...extra,
});

describe('sandbox', () => {
  it("sends a number no account serves (Moov) to the subsidiary's simulator; with the simulator disabled, 422 as before", async () => {
    const res = await sys.api('POST', '/api/v1/payments/cashin', cashinBody('+2250112345606'));
    expect(res.status).toBe(202);
    expect((await sys.db.transaction.findUniqueOrThrow({ where: { id: res.body.data.transaction_id } })).operator).toBe(
      'SIMULATOR',
    );
    await setOperatorAccountEnabled(sys.db, 'CI', 'SIMULATOR', false);
    try {
      await waitFor(
        async () =>
          (await sys.api('POST', '/api/v1/payments/cashin', cashinBody('+2250112345606'))).status === 422 || undefined,
        { what: 'the change heard', timeoutMs: 5000 },
      );
      expectError(
        await withoutWrites(sys, () => sys.api('POST', '/api/v1/payments/cashin', cashinBody('+2250112345606'))),
        422,
        'OPERATOR_NOT_SUPPORTED',
      );
    } finally {
      await setOperatorAccountEnabled(sys.db, 'CI', 'SIMULATOR', true);
    }
  });

  it("a service refuses to start while an account is set up for its operator's live system and points at the operator; at a mock inside, it starts", async () => {
    // Written behind the services' back (the back-office and the CLI refuse it): a Wave production key on Wave's own host.
    await upsertOperatorAccount(sys.db, {
      countryCode: 'CI',
      operator: 'WAVE',
      api: 'wave',
      baseUrl: 'https://api.wave.com',
    });
    await setOperatorAccountCredentials(sys.db, sys.box, 'CI', 'WAVE', {
      apiKey: 'wave_ci_prod_e2eLiveKey',
      webhookSecret: 'e2e-signing-secret',
    });
    await expect(sys.startExtraGateway({})).rejects.toThrow(
      /refusing to start with DEPLOYMENT_MODE=sandbox: the account CI WAVE is set up for its operator's live system \(a Wave production API key/,
    );

    // Enabled all the same, behind everyone's back: the running bridge refuses the account, nothing is sent, the cash-in fails at once.
    await setOperatorAccountEnabled(sys.db, 'CI', 'WAVE', true);
    const res = await waitFor(
      async () => {
        const r = await sys.api('POST', '/api/v1/payments/cashin', cashinBody(CI_NUMBER('06'), { operator: 'WAVE' }));
        return r.status === 202 ? r : undefined;
      },
      { what: 'the gateway to route to the enabled account', timeoutMs: 5000 },
    );
    const failed = await waitFor(
      async () => {
        const row = await sys.db.transaction.findUniqueOrThrow({ where: { id: res.body.data.transaction_id } });
        return row.status === 'FAILED' ? row : undefined;
      },
      { what: 'the cash-in refused by the bridge' },
    );
    expect({ operator: failed.operator, failureCode: failed.failureCode }).toEqual({
      operator: 'WAVE',
      failureCode: 'OPERATOR_REJECTED',
    });

    await setOperatorAccountEnabled(sys.db, 'CI', 'WAVE', false);
    await upsertOperatorAccount(sys.db, {
      countryCode: 'CI',
      operator: 'WAVE',
      api: 'wave',
      baseUrl: 'http://operator-mocks:3015',
    });
    const started = await sys.startExtraGateway({});
    expect((await fetch(`${started.url}/health`)).status).toBe(200);
  });
});

describe('live', () => {
  let live: Awaited<ReturnType<System['startExtraGateway']>>;
  beforeAll(async () => {
    for (const c of SIMULATORS) await setOperatorAccountEnabled(sys.db, c, 'SIMULATOR', false);
    live = await sys.startExtraGateway({ DEPLOYMENT_MODE: 'live', DISBURSEMENT_ENABLED: 'true' });
  });
  afterAll(async () => {
    for (const c of SIMULATORS) await setOperatorAccountEnabled(sys.db, c, 'SIMULATOR', true);
  });

  it("a simulator's test number goes to the real operator of its range (Orange, not configured here: 503), nothing written", async () => {
    const res = await withoutWrites(sys, () =>
      live.api('POST', '/api/v1/payments/cashin', cashinBody(CI_NUMBER('01'))),
    );
    expectError(res, 503, 'OPERATOR_UNAVAILABLE');
    expect(res.body.error.message).toMatch(/ORANGE/);
  });

  it('the simulator named in the body, and a number no real operator serves, are 422 OPERATOR_NOT_SUPPORTED, for cash-ins and cash-outs, nothing written', async () => {
    for (const body of [cashinBody(CI_NUMBER('01'), { operator: 'SIMULATOR' }), cashinBody('+2250112345601')]) {
      expectError(
        await withoutWrites(sys, () => live.api('POST', '/api/v1/payments/cashin', body)),
        422,
        'OPERATOR_NOT_SUPPORTED',
      );
    }
    const cashout = { merchant_order_id: newOrderId('mode-co'), amount: 1000, beneficiary_msisdn: '+2250112345601' };
    expectError(
      await withoutWrites(sys, () => live.api('POST', '/api/v1/payments/cashout', cashout)),
      422,
      'OPERATOR_NOT_SUPPORTED',
    );
  });

  it('a service refuses to start while a simulator account is enabled', async () => {
    await setOperatorAccountEnabled(sys.db, 'SN', 'SIMULATOR', true);
    try {
      await expect(sys.startExtraGateway({ DEPLOYMENT_MODE: 'live' })).rejects.toThrow(
        /refusing to start with DEPLOYMENT_MODE=live: the simulator account SN SIMULATOR is enabled: a live deployment sends no payment to the simulator/,
      );
    } finally {
      await setOperatorAccountEnabled(sys.db, 'SN', 'SIMULATOR', false);
    }
  });
});
