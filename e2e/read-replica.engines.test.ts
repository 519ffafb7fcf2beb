import pg from 'pg';
import { TestClient } from '@mm/testing';
import { PrivatePostgres, samplesOf, waitFor } from '@mm/testing';
import { startSystemBackoffice, STAFF_PASSWORD } from './support/backoffice.js';
import { newOrderId } from './support/contract.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * DATABASE_REPLICA_URL (`pnpm test:engines`): merchants' exports and back-office searches read a real
 * streaming replica (pg_basebackup of a private cluster), within REPLICA_MAX_LAG_S, and the primary when
 * it lags further or is down; what moves money and what staff act on read the primary. A replica held
 * back (its replay paused) is how a test tells which one answered: a cash-in made since is only on the primary.
 */
let primary: PrivatePostgres;
let standby: PrivatePostgres;
let sys: System;

beforeAll(async () => {
  primary = await PrivatePostgres.start();
  standby = await PrivatePostgres.startStandby(primary);
  sys = await startSystem({ databaseAdminUrl: primary.url('postgres') });
}, 120_000);
afterAll(async () => {
  await sys?.stop();
  await standby?.stop();
  await primary?.stop();
});

const today = () => new Date().toISOString().slice(0, 10);
const exportOf = async (api: System['api']) => {
  const res = await api('GET', `/api/v1/transactions/export?date_from=${today()}&date_to=${today()}&format=csv`);
  expect(res.status).toBe(200);
  return res.text;
};
const metric = async (internalUrl: string, name: string, labels: Record<string, string> = {}) => {
  const samples = samplesOf(await (await fetch(`${internalUrl}/metrics`)).text(), name);
  return samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
};
/** A cash-in made now (its number never confirms: nothing moves it after PENDING); its order id. */
const cashin = async () => {
  const order = newOrderId('replica');
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: order,
    amount: 3100,
    customer_msisdn: CI_NUMBER('06'),
  });
  expect(res.status).toBe(202);
  return { order, id: res.body.data.transaction_id as string };
};
/** Until the standby has replayed everything the primary has written. */
const caughtUp = () =>
  waitFor(async () => (await replayed()) || undefined, { what: 'the standby to catch up', timeoutMs: 15_000 });
async function replayed(): Promise<boolean> {
  const client = new pg.Client({ connectionString: standby.url('postgres') });
  await client.connect();
  try {
    const { rows } = await client.query<{ done: boolean }>(
      'SELECT pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() AS done',
    );
    return rows[0]!.done;
  } finally {
    await client.end();
  }
}

describe('exports on the read replica', () => {
  it('read the replica while it is within its bound (a cash-in it has not replayed yet is not in the export), the primary for everything else', async () => {
    const gateway = await sys.startExtraGateway({
      DATABASE_REPLICA_URL: standby.url(sys.database.name),
      REPLICA_MAX_LAG_S: '3600',
    });
    await caughtUp();
    const before = await cashin();
    await waitFor(async () => (await exportOf(gateway.api)).includes(before.order) || undefined, {
      what: 'the first cash-in on the replica',
    });

    await standby.pauseReplay(true);
    try {
      const held = await cashin();
      // The status read is the primary's: the cash-in is there at once.
      expect((await gateway.api('GET', `/api/v1/payments/${held.id}`)).body.data.merchant_order_id).toBe(held.order);
      const exported = await exportOf(gateway.api);
      expect({ before: exported.includes(before.order), held: exported.includes(held.order) }).toEqual({
        before: true,
        held: false,
      });
      expect(await metric(gateway.internalUrl, 'mm_db_replica_in_use')).toBe(1);
      expect(
        await metric(gateway.internalUrl, 'mm_db_replica_reads_total', { target: 'replica' }),
      ).toBeGreaterThanOrEqual(2);
      // The probe (every second) sees it behind; still within the bound, so still read.
      await waitFor(
        async () => ((await metric(gateway.internalUrl, 'mm_db_replica_lag_seconds')) ?? 0) > 0 || undefined,
        { what: "the replica's lag on /metrics" },
      );
      expect(await exportOf(gateway.api)).not.toContain(held.order);
    } finally {
      await standby.pauseReplay(false);
    }
  });

  it('read the primary once the replica lags past REPLICA_MAX_LAG_S, and the replica again once it caught up', async () => {
    const gateway = await sys.startExtraGateway({
      DATABASE_REPLICA_URL: standby.url(sys.database.name),
      REPLICA_MAX_LAG_S: '1',
    });
    await caughtUp();
    await standby.pauseReplay(true);
    let held: { order: string };
    try {
      held = await cashin();
      await waitFor(async () => (await metric(gateway.internalUrl, 'mm_db_replica_in_use')) === 0 || undefined, {
        what: 'the replica out of use (lag over 1 s)',
      });
      expect(await metric(gateway.internalUrl, 'mm_db_replica_lag_seconds')).toBeGreaterThan(1);
      expect(await exportOf(gateway.api)).toContain(held.order);
      expect(
        await metric(gateway.internalUrl, 'mm_db_replica_reads_total', { target: 'primary' }),
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await standby.pauseReplay(false);
    }
    await waitFor(async () => (await metric(gateway.internalUrl, 'mm_db_replica_in_use')) === 1 || undefined, {
      what: 'the replica in use again',
    });
    expect(await exportOf(gateway.api)).toContain(held.order);
  });

  it('read the primary once a replica cut from its primary falls past REPLICA_MAX_LAG_S, though it has replayed all it received', async () => {
    const gateway = await sys.startExtraGateway({
      DATABASE_REPLICA_URL: standby.url(sys.database.name),
      REPLICA_MAX_LAG_S: '2',
    });
    await caughtUp();
    await standby.cutReplication(true);
    let made: { order: string };
    try {
      made = await cashin();
      // What the standby's own positions say: all it received is replayed, as they would say for ever.
      expect(await replayed()).toBe(true);
      await waitFor(async () => (await metric(gateway.internalUrl, 'mm_db_replica_in_use')) === 0 || undefined, {
        what: 'the cut replica out of use',
      });
      expect(await exportOf(gateway.api)).toContain(made.order);
      expect(
        await metric(gateway.internalUrl, 'mm_db_replica_reads_total', { target: 'primary' }),
      ).toBeGreaterThanOrEqual(1);
      expect(await metric(gateway.internalUrl, 'mm_db_replica_up')).toBe(1);
      // The lag goes on growing with the cut's real age (the probe runs every second).
      const lag = (await metric(gateway.internalUrl, 'mm_db_replica_lag_seconds'))!;
      expect(lag).toBeGreaterThan(2);
      await waitFor(
        async () => (await metric(gateway.internalUrl, 'mm_db_replica_lag_seconds'))! >= lag + 1.5 || undefined,
        { what: 'the lag to grow as the cut lasts', timeoutMs: 10_000 },
      );
      expect(await replayed()).toBe(true);
    } finally {
      await standby.cutReplication(false);
    }
    await waitFor(async () => (await metric(gateway.internalUrl, 'mm_db_replica_in_use')) === 1 || undefined, {
      what: 'the replica in use again once it streams',
    });
    expect(await exportOf(gateway.api)).toContain(made.order);
    expect(await metric(gateway.internalUrl, 'mm_db_replica_lag_seconds')).toBeLessThanOrEqual(2);
  });

  it('read the primary while the replica is down (killed -9), without a failed export, and the replica once it is back', async () => {
    const gateway = await sys.startExtraGateway({
      DATABASE_REPLICA_URL: standby.url(sys.database.name),
      REPLICA_MAX_LAG_S: '3600',
    });
    await caughtUp();
    await standby.killImmediate();
    try {
      // The first export may find it down before the probe does: it goes to the primary all the same.
      const made = await cashin();
      expect(await exportOf(gateway.api)).toContain(made.order);
      await waitFor(async () => (await metric(gateway.internalUrl, 'mm_db_replica_up')) === 0 || undefined, {
        what: 'the replica seen down',
      });
      expect(await metric(gateway.internalUrl, 'mm_db_replica_in_use')).toBe(0);
      expect(await exportOf(gateway.api)).toContain(made.order);
    } finally {
      await standby.restart();
    }
    await waitFor(async () => (await metric(gateway.internalUrl, 'mm_db_replica_in_use')) === 1 || undefined, {
      what: 'the replica in use again',
      timeoutMs: 30_000,
    });
  });
});

describe('back-office searches on the read replica', () => {
  it("the search reads the replica, the transaction's own page the primary", async () => {
    const backoffice = await startSystemBackoffice(sys, {
      DATABASE_REPLICA_URL: standby.url(sys.database.name),
      REPLICA_MAX_LAG_S: '3600',
    });
    try {
      const staff = new TestClient(backoffice.url);
      expect((await staff.logIn(await backoffice.staff('viewer'), STAFF_PASSWORD)).status).toBe(303);
      await caughtUp();
      await standby.pauseReplay(true);
      let held: { order: string; id: string };
      try {
        held = await cashin();
        const search = await staff.get(`/transactions?order_id=${held.order}`);
        expect(search.status).toBe(200);
        expect(search.text).not.toContain(`/transactions/${held.id}`);
        const detail = await staff.get(`/transactions/${held.id}`);
        expect({ status: detail.status, shows: detail.text.includes(held.order) }).toEqual({
          status: 200,
          shows: true,
        });
        expect(
          await metric(backoffice.internalUrl, 'mm_db_replica_reads_total', { target: 'replica' }),
        ).toBeGreaterThanOrEqual(1);
      } finally {
        await standby.pauseReplay(false);
      }
      await waitFor(
        async () =>
          (await staff.get(`/transactions?order_id=${held.order}`)).text.includes(`/transactions/${held.id}`) ||
          undefined,
        { what: 'the search to find the cash-in once the replica replayed it' },
      );
    } finally {
      await backoffice.stop();
    }
  });
});
