/**
 * `pnpm bench`: measures the cash-in path end to end on this machine (gateway + operator bridge +
 * the real simulator over HTTP, real PostgreSQL and Redis) and prints a table. A throw-away database
 * and Redis prefix are used and removed. BENCH_SECONDS and BENCH_CONNECTIONS tune the run;
 * BENCH_EXPORT_ROWS (default 1 000 000, 0 to skip) sizes the transaction export run (export-bench.ts).
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { createApiKey, createDb, createMerchant, SecretBox, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db';
import { signPayload } from '@mm/domain';
import { parseEnv as gatewayEnv, startGateway } from '@mm/gateway';
import { parseEnv as bridgeEnv, startOperatorBridge } from '@mm/operator-bridge';
import { startSimulator } from '@mm/operator-simulator';
import { createLogger } from '@mm/observability';
import { createTestDatabase, createTestRedis } from '@mm/testing';
import { exportBench } from './export-bench.js';
import { signatureVerification } from './signature-verification.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

const database = await createTestDatabase();
const redis = await createTestRedis();
const db = createDb({ databaseUrl: database.url, poolSize: 2 });
for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
const masterKey = randomBytes(32).toString('hex');
const merchant = await createMerchant(db, { name: 'Bench', webhookUrl: null });
const key = await createApiKey(db, new SecretBox(masterKey), merchant.id);
const logger = createLogger('bench', 'silent');
const sim = await startSimulator({
  port: 0, host: '127.0.0.1', apiToken: 'sim-token', callbackSecret: 'sim-callback-secret',
  outcomeDelayMs: 50, lateConfirmDelayMs: 600_000, hangMs: 5000, log: () => undefined,
});
const base = { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, MASTER_KEY: masterKey, LOG_LEVEL: 'silent', OPERATOR_BASE_URL: sim.url, RATE_LIMIT_PER_S: '100000', RATE_LIMIT_BURST: '100000' };
const gateway = await startGateway(gatewayEnv({ ...base, GATEWAY_PORT: '0', CASHIN_ACK_WAIT_MS: process.env.BENCH_ACK_WAIT_MS ?? '5000' }), { logger });
const bridge = await startOperatorBridge(bridgeEnv({ ...base, OPERATOR_BRIDGE_PORT: '0' }), { logger });

let n = 0;
// Numbers ending 06 stay PENDING: each request measures acceptance + the operator's acknowledgement.
const result = await autocannon({
  url: `${gateway.url}/api/v1/payments/cashin`,
  connections,
  duration: seconds,
  requests: [{
    method: 'POST',
    setupRequest: (req) => {
      const body = JSON.stringify({ merchant_order_id: `bench-${process.pid}-${++n}`, amount: 1000, customer_msisdn: '+2250707000006' });
      const ts = String(Math.floor(Date.now() / 1000));
      return { ...req, body, headers: { 'content-type': 'application/json', 'x-service-key': key.apiKey, 'x-service-timestamp': ts, 'x-service-signature': signPayload(key.apiSecret, ts, body) } };
    },
  }],
});
const created = await db.transaction.count();
const pending = await db.transaction.count({ where: { status: 'PENDING' } });

const rows = [
  ['cash-in accepted (202, operator acknowledged)', `${result.requests.average.toFixed(0)} req/s`, `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`, `${result.non2xx} non-2xx, ${result.errors} errors; ${pending}/${created} PENDING`],
  ...signatureVerification(),
  ...(await exportBench({ baseUrl: gateway.url, databaseUrl: database.url, merchantId: merchant.id, apiKey: key.apiKey, apiSecret: key.apiSecret, rows: Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000) })),
];
console.log(`\n${connections} connections, ${seconds} s, 2 cores\n`);
console.table(rows.map(([what, rate, latency, notes]) => ({ what, rate, latency, notes })));

await gateway.stop();
await bridge.stop();
await sim.close();
await db.$disconnect();
await redis.close();
await database.drop();
