import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_MERCHANT } from '@mm/config';
import { createDb, type Db } from '@mm/db';
import { verifyLedger } from '@mm/db/ledger';
import { distinctFreePorts, PrivatePostgres, signedClient, waitFor } from '@mm/testing';
import { PrivateRedis } from './support/private-redis.js';
import { SimulatorControl } from './support/simulator-control.js';

/**
 * Scenario 7b (issue 39): the system as `pnpm start` runs it (scripts/start.ts: its migrations, its seed,
 * every service with the settings it gives them, nothing of the chaos suite's own), on a PostgreSQL of
 * the suite's own that is stopped the way `pg_ctlcluster … stop -m immediate` stops a machine's server,
 * for 5 s, under 8 clients sending cash-ins. Seen before the fix: the cash-ins committed just before the
 * stop waited out the whole acknowledgement wait (CASHIN_ACK_WAIT_MS, 5 s) and then answered 503 for a
 * cash-in that was recorded. Now no request waits more than the gateway's database budget (2 s) once
 * PostgreSQL is gone, no answer is a 500, every 503 says when to retry, and every cash-in answered 202
 * is paid once PostgreSQL is back, with the ledger whole.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The gateway's 2 s database budget, and slack for a loaded two-core machine. */
const ANSWER_BOUND_MS = 2_000 + 1_000;
const DOWN_MS = 5_000;
const CLIENTS = 8;
/** The simulator takes this long to acknowledge a push: at any moment most clients wait for an acknowledgement. */
const PUSH_LATENCY_MS = 1_500;

interface Sent {
  order: string;
  sentAt: number;
  answeredAt: number;
  status: number;
  retryAfter: string | null;
  id: string | null;
  state: string | null;
}

let postgres: PrivatePostgres;
let redis: PrivateRedis;
let system: ChildProcess | null = null;
let output = '';
let gatewayUrl: string;
let simulator: SimulatorControl;
let db: Db;
// The operators' records of this run: not the repository's own .operator-records/, which pnpm start keeps for a developer.
const recordsDir = mkdtempSync(path.join(tmpdir(), 'mm-start-path-records-'));

const stopSystem = () => {
  if (system?.pid && system.exitCode === null) process.kill(-system.pid, 'SIGKILL');
};

beforeAll(async () => {
  postgres = await PrivatePostgres.start();
  redis = await PrivateRedis.start();
  const port = distinctFreePorts();
  const ports: Record<string, number> = {};
  for (const name of [
    'GATEWAY_PORT',
    'BACKOFFICE_PORT',
    'OPERATOR_BRIDGE_PORT',
    'OPERATOR_SIMULATOR_PORT',
    'WEBHOOK_INBOX_PORT',
    'GATEWAY_INTERNAL_PORT',
    'BACKOFFICE_INTERNAL_PORT',
    'MERCHANT_PORTAL_PORT',
    'MERCHANT_PORTAL_INTERNAL_PORT',
    'OPERATOR_BRIDGE_INTERNAL_PORT',
    'WEBHOOK_DISPATCHER_PORT',
    'EXPIRY_WORKER_PORT',
    'REFUND_WORKER_PORT',
    'MOCK_MTN_CI_PORT',
    'MOCK_MTN_CM_PORT',
    'MOCK_ORANGE_WEBPAY_PORT',
    'MOCK_ORANGE_MP_PORT',
    'MOCK_WAVE_PORT',
    'MAILDEV_SMTP_PORT',
    'MAILDEV_WEB_PORT',
  ])
    ports[name] = await port();
  const sandboxToken = 'chaos-start-path-sandbox-token';
  // Only where it runs: the database, Redis, the ports, JSON logs. Everything else is pnpm start's.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATABASE_URL: postgres.url('mobilemoney'),
    REDIS_URL: redis.url,
    SIM_SANDBOX_TOKEN: sandboxToken,
    LOG_FORMAT: 'json',
    OPERATOR_RECORDS_DIR: recordsDir,
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  };
  system = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process.once('exit', stopSystem);
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  system.stdout!.on('data', keep);
  system.stderr!.on('data', keep);
  gatewayUrl = `http://127.0.0.1:${ports.GATEWAY_PORT}`;
  simulator = new SimulatorControl(`http://127.0.0.1:${ports.OPERATOR_SIMULATOR_PORT}`, sandboxToken);
  const ready = (url: string) =>
    fetch(url).then(
      (r) => r.ok,
      () => false,
    );
  await waitFor(
    async () => {
      if (system!.exitCode !== null) throw new Error(`pnpm start exited ${system!.exitCode}:\n${output.slice(-5000)}`);
      return (
        ((await ready(`http://127.0.0.1:${ports.GATEWAY_INTERNAL_PORT}/ready`)) &&
          (await ready(`http://127.0.0.1:${ports.OPERATOR_BRIDGE_INTERNAL_PORT}/ready`)) &&
          (await ready(`http://127.0.0.1:${ports.OPERATOR_SIMULATOR_PORT}/health`))) ||
        undefined
      );
    },
    { what: 'the system started by scripts/start.ts', timeoutMs: 120_000, intervalMs: 250 },
  );
  db = createDb({ databaseUrl: postgres.url('mobilemoney'), poolSize: 2 });
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  if (system?.pid && system.exitCode === null) {
    const exited = new Promise((resolve) => system!.once('exit', resolve));
    process.kill(-system.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
  stopSystem();
  await redis?.stop();
  await postgres?.stop();
  rmSync(recordsDir, { recursive: true, force: true });
}, 60_000);

it('stopped with -m immediate for 5 s under 8 clients: every request answered within the budget of the outage, no 500, every 202 paid', async () => {
  const api = signedClient(gatewayUrl, DEMO_MERCHANT.apiKey, DEMO_MERCHANT.apiSecret);
  await simulator.setFaults({ latency_ms: PUSH_LATENCY_MS });
  const sent: Sent[] = [];
  let sending = true;
  let n = 0;
  // A merchant's integration: a cash-in answered 503 (or 429) is sent again, same merchant_order_id, a little later.
  const client = async (c: number) => {
    while (sending) {
      const order = `start-path-${c}-${n++}`;
      for (;;) {
        const sentAt = Date.now();
        const res = await api('POST', '/api/v1/payments/cashin', {
          merchant_order_id: order,
          amount: 1000,
          customer_msisdn: '+2250707000001',
        });
        const data = res.body?.data as { transaction_id?: string; status?: string } | undefined;
        sent.push({
          order,
          sentAt,
          answeredAt: Date.now(),
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          id: data?.transaction_id ?? null,
          state: data?.status ?? null,
        });
        if (res.status !== 503 && res.status !== 429) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
  await waitFor(() => sent.filter((s) => s.status === 202).length >= 2 * CLIENTS || undefined, {
    what: 'cash-ins going through',
    timeoutMs: 30_000,
  });
  const stoppedAt = Date.now();
  await postgres.stopImmediate();
  // The fault lasts this long; nothing is waited on here.
  await new Promise((r) => setTimeout(r, DOWN_MS));
  await postgres.restart();
  const backAt = Date.now();
  await waitFor(() => sent.filter((s) => s.sentAt > backAt && s.status === 202).length >= CLIENTS || undefined, {
    what: 'cash-ins accepted again',
    timeoutMs: 60_000,
  });
  sending = false;
  await Promise.all(clients);
  await simulator.setFaults({});

  // Not vacuous: cash-ins were waiting for their acknowledgement when PostgreSQL went, and some were sent while it was down.
  const caught = sent.filter((s) => s.sentAt < stoppedAt && s.answeredAt > stoppedAt);
  expect(caught.length).toBeGreaterThan(0);
  expect(sent.filter((s) => s.sentAt > stoppedAt && s.sentAt < backAt).length).toBeGreaterThan(0);

  const overlapping = sent.filter((s) => s.answeredAt > stoppedAt && s.sentAt < backAt);
  const late = overlapping
    .filter((s) => s.answeredAt - Math.max(s.sentAt, stoppedAt) > ANSWER_BOUND_MS)
    .map((s) => ({ order: s.order, status: s.status, waitedMs: s.answeredAt - Math.max(s.sentAt, stoppedAt) }));
  expect(late).toEqual([]);
  expect(
    sent.filter((s) => s.status >= 500 && s.status !== 503).map((s) => ({ order: s.order, status: s.status })),
  ).toEqual([]);
  expect(sent.filter((s) => (s.status === 503 || s.status === 429) && !s.retryAfter).map((s) => s.order)).toEqual([]);
  expect([...new Set(sent.map((s) => s.status))].filter((status) => ![200, 202, 429, 503].includes(status))).toEqual(
    [],
  );

  // Nothing lost, nothing doubled: each order ended accepted (202, or 200 for a retry of one a lost COMMIT
  // had recorded), has one cash-in, and it is paid once PostgreSQL is back, the ledger whole.
  const orders = new Map(sent.map((s) => [s.order, s]));
  expect([...orders.values()].filter((last) => last.status !== 202 && last.status !== 200).map((s) => s.order)).toEqual(
    [],
  );
  await waitFor(
    async () => {
      const rows = await db.transaction.findMany({
        where: { merchantOrderId: { startsWith: 'start-path-' } },
        select: { merchantOrderId: true, status: true },
      });
      return (rows.length === orders.size && rows.every((r) => r.status === 'SUCCESS')) || undefined;
    },
    { what: 'one successful cash-in per order', timeoutMs: 120_000, intervalMs: 500 },
  );
  expect(await verifyLedger(db)).toMatchObject({ ok: true, problems: [] });
}, 240_000);
