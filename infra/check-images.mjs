#!/usr/bin/env node
/**
 * The images' check for a machine without a Docker engine: `node infra/check-images.mjs`.
 *
 * For every infra/docker/*.Dockerfile it replays the build outside Docker, from the Dockerfile's own
 * text: the build context is the working tree filtered by .dockerignore, the build stage's RUN lines run
 * in a copy of it (`/pnpm/store` -> this machine's pnpm store, `/out` -> a temporary directory), and the
 * runtime tree is what `COPY --from=build /out /app` copies. Then the whole system runs from those
 * runtime trees: the runtime stage's ENV, its CMD, as uid/gid 1000 (`node` in the image; when this
 * script runs as root) on files it cannot write, with the environment docker-compose.yml gives, against
 * this machine's PostgreSQL (a database of its own) and Redis (a key prefix of its own):
 *   - admin-cli: its CMD (migrate) on the empty database, then `seed:subsidiaries` as docker-compose.yml's
 *     production stack runs it (no demo data: the services run with NODE_ENV=production and would refuse it),
 *     then a merchant (`merchant:create`, webhooks to the inbox) and a back-office admin (`staff:create`);
 *   - every service: its HEALTHCHECK command until it passes, then GET /ready on its internal port, where it
 *     has one, and GET /ready and /metrics answering 404 on the public port of those with public routes;
 *   - a signed cash-in (README's signing) reaches SUCCESS and its webhook is delivered to the inbox with a
 *     valid signature; a partial refund of it reaches SUCCESS (refund-worker); a cash-in that is never
 *     confirmed becomes EXPIRED (expiry-worker, CASHIN_CONFIRMATION_TIMEOUT_S=3 here);
 *   - the gateway's API reference files (Swagger UI, beside the bundle) when it has that page;
 *   - the back-office: a login, and the Bull dashboard page with one of its static files (@bull-board/ui
 *     beside the bundle); admin-cli from the backoffice image: `ledger:verify` over what the flows wrote;
 *   - SIGTERM (the STOPSIGNAL) to every service: each one must exit 0.
 * It prints the size (du -sh) of each build stage's /app (what the runtime stages copied before the
 * bundles) and of each runtime tree, and removes everything it made: processes, temporary directories,
 * the database, the Redis keys. `--keep` keeps the temporary directory (logs, trees) for a look.
 *
 * Needs: node 20, pnpm, PostgreSQL and Redis (noeviction) as for `pnpm start`, the workspace installed
 * (`pnpm install`: pg and ioredis are taken from it). Environment: CHECK_PG_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres), CHECK_REDIS_URL (redis://127.0.0.1:6379),
 * CHECK_PORT_BASE (39000: ports base..base+10), PNPM_STORE_DIR (default `pnpm store path`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requireFrom = (pkg) => createRequire(path.join(ROOT, pkg, 'package.json'));
const pg = requireFrom('.')('pg');
const { Redis } = requireFrom('packages/queues')('ioredis');

const KEEP = process.argv.includes('--keep');
const PG_URL = process.env.CHECK_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.CHECK_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BASE = Number(process.env.CHECK_PORT_BASE ?? 39000);
const RUN_AS = process.getuid?.() === 0 ? { uid: 1000, gid: 1000 } : {};
// The merchant and the back-office admin created with admin-cli once the database is migrated.
const MERCHANT = { key: '', secret: '' };
const STAFF = { email: 'check-images@example.test', password: randomBytes(12).toString('hex') };

const tag = `${process.pid}_${Date.now().toString(36)}`;
const DB_NAME = `mm_check_images_${tag}`;
const PREFIX = `mmcheck_${tag}`;
const WORK = mkdtempSync(path.join(os.tmpdir(), 'mm-check-images-'));
const children = new Map(); // service -> ChildProcess
const oneShots = new Set(); // commands run to completion (health checks, admin-cli)
let dbCreation; // the CREATE DATABASE promise: a signal may arrive while it is in flight
let stopping = false;

const exited = (child) => child.exitCode !== null || child.signalCode !== null;
const log = (msg) => console.log(`[check-images] ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function fail(msg) { throw new Error(msg); }

// ---------------------------------------------------------------------------------------------------
// Dockerfiles and the build context

/** Docker's .dockerignore rules: `**` any directories, `*` within a name, last matching line wins, `!` re-includes. */
function dockerignore() {
  const rules = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const glob = (negate ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
      const re = glob.split('/').map((part) => (part === '**' ? '(?:.*)' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))).join('/')
        .replace(/\(\?:\.\*\)\//g, '(?:.*/)?');
      return { negate, re: new RegExp(`^${re}$`) };
    });
  return (file) => {
    // A path is excluded when it or one of its parent directories matches.
    const prefixes = file.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (prefixes.some((p) => rule.re.test(p))) excluded = !rule.negate;
    return excluded;
  };
}

function buildContext() {
  const ignored = dockerignore();
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 })
    .split('\0').filter(Boolean).filter((f) => !ignored(f));
  const dir = path.join(WORK, 'context');
  for (const f of files) {
    try {
      cpSync(path.join(ROOT, f), path.join(dir, f));
    } catch (err) {
      if (err.code !== 'ENOENT') throw err; // deleted in the working tree, not yet in git
    }
  }
  return { dir, count: files.length };
}

/** The instructions of a Dockerfile (continuation lines joined, comments dropped), split by stage. */
function parseDockerfile(file) {
  const text = readFileSync(file, 'utf8').replace(/\\\n\s*/g, ' ');
  const stages = {};
  let current;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(line);
    if (op.toUpperCase() === 'FROM') {
      current = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? 'unnamed';
      stages[current] = [];
    } else if (current) stages[current].push({ op: op.toUpperCase(), args });
  }
  const { build, runtime } = stages;
  if (!build || !runtime) fail(`${file}: expected the stages "build" and "runtime"`);
  const copyAll = build.findIndex((i) => i.op === 'COPY' && i.args === '. .');
  const runs = build.slice(copyAll + 1).filter((i) => i.op === 'RUN').map((i) => i.args);
  const fetch = build.slice(0, copyAll).filter((i) => i.op === 'RUN' && /pnpm fetch/.test(i.args)).map((i) => i.args);
  const env = {};
  for (const i of runtime.filter((x) => x.op === 'ENV')) {
    for (const m of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, '');
  }
  const copy = runtime.find((i) => i.op === 'COPY')?.args;
  if (copy !== '--from=build /out /app') fail(`${file}: the runtime stage should COPY --from=build /out /app (found: ${copy})`);
  if (runtime.find((i) => i.op === 'USER')?.args !== 'node') fail(`${file}: the runtime stage should run as USER node`);
  if (runtime.find((i) => i.op === 'STOPSIGNAL')?.args !== 'SIGTERM') fail(`${file}: STOPSIGNAL SIGTERM expected`);
  const cmd = JSON.parse(runtime.findLast((i) => i.op === 'CMD').args);
  const hc = runtime.find((i) => i.op === 'HEALTHCHECK')?.args ?? 'NONE';
  const healthcheck = hc === 'NONE' ? null : JSON.parse(hc.slice(hc.indexOf('CMD') + 3).trim());
  return { fetch, runs, env, cmd, healthcheck };
}

function du(dir) {
  return execFileSync('du', ['-sh', dir], { encoding: 'utf8' }).split('\t')[0];
}

function buildImage(name, dockerfile, context, store) {
  const app = path.join(WORK, 'build', name); // the build stage's /app
  const out = path.join(WORK, 'images', name); // the build stage's /out = the runtime stage's /app
  cpSync(context, app, { recursive: true });
  for (const run of [...dockerfile.fetch, ...dockerfile.runs]) {
    const command = run.replaceAll('/pnpm/store', store).replace(/(^|\s)\/out(?=\s|$)/g, `$1${out}`);
    execFileSync('bash', ['-euo', 'pipefail', '-c', command], {
      cwd: app, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26,
    });
  }
  return { app, out, before: du(app), after: du(out) };
}

// ---------------------------------------------------------------------------------------------------
// Running the images

const PORTS = {
  gateway: BASE, backoffice: BASE + 1, 'operator-bridge': BASE + 2, 'operator-simulator': BASE + 3,
  'webhook-inbox': BASE + 4, 'webhook-dispatcher': BASE + 5, 'expiry-worker': BASE + 6, 'refund-worker': BASE + 7,
};
/** /ready and /metrics of the services with public routes; the others serve them on their one port. */
const INTERNAL_PORTS = { gateway: BASE + 8, backoffice: BASE + 9, 'operator-bridge': BASE + 10 };
const url = (service) => `http://127.0.0.1:${PORTS[service]}`;
const internalUrl = (service) => `http://127.0.0.1:${INTERNAL_PORTS[service] ?? PORTS[service]}`;

/**
 * The environment docker-compose.yml gives each service, pointed at this machine: its production stack
 * (NODE_ENV=production, no demo data), with the demo profile's simulator and inbox standing in for the
 * operator and the merchant, and the operator token, callback secret and sandbox token set as compose
 * requires them (no published default). The inbox verifies with the merchant created here.
 */
function composeEnv(service, secrets) {
  const data = { NODE_ENV: 'production', DATABASE_URL: secrets.databaseUrl, REDIS_URL, REDIS_PREFIX: PREFIX, LOG_LEVEL: 'info' };
  const operator = { OPERATOR: 'simulator', OPERATOR_BASE_URL: url('operator-simulator'), OPERATOR_API_TOKEN: secrets.operatorToken, OPERATOR_CALLBACK_SECRET: secrets.callbackSecret, MASTER_KEY: secrets.masterKey };
  switch (service) {
    case 'operator-simulator': return {
      OPERATOR_SIMULATOR_PORT: PORTS[service], OPERATOR_API_TOKEN: secrets.operatorToken, OPERATOR_CALLBACK_SECRET: secrets.callbackSecret,
      SIM_SANDBOX_TOKEN: secrets.sandboxToken, LOG_LEVEL: 'info',
    };
    case 'webhook-inbox': return { WEBHOOK_INBOX_PORT: PORTS[service], DEMO_API_SECRET: MERCHANT.secret };
    case 'gateway': return { ...data, GATEWAY_PORT: PORTS[service], GATEWAY_INTERNAL_PORT: INTERNAL_PORTS[service], PUBLIC_BASE_URL: url('gateway'), MASTER_KEY: secrets.masterKey };
    case 'backoffice': return {
      ...data, BACKOFFICE_PORT: PORTS[service], BACKOFFICE_INTERNAL_PORT: INTERNAL_PORTS[service], SESSION_SECRET: secrets.sessionSecret, MASTER_KEY: secrets.masterKey, SECURE_COOKIES: 'false',
    };
    // CASHIN_CONFIRMATION_TIMEOUT_S: 3 s instead of 300 so that the expiry worker has work during the check.
    case 'operator-bridge': return {
      ...data, ...operator, OPERATOR_BRIDGE_PORT: PORTS[service], OPERATOR_BRIDGE_INTERNAL_PORT: INTERNAL_PORTS[service],
      OPERATOR_CALLBACK_BASE_URL: url('operator-bridge'), CASHIN_CONFIRMATION_TIMEOUT_S: '3',
    };
    case 'expiry-worker': return { ...data, ...operator, EXPIRY_WORKER_PORT: PORTS[service] };
    case 'refund-worker': return { ...data, ...operator, REFUND_WORKER_PORT: PORTS[service] };
    // The inbox is on this machine: MM_WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, as the demo sets it.
    case 'webhook-dispatcher': return { ...data, WEBHOOK_DISPATCHER_PORT: PORTS[service], MASTER_KEY: secrets.masterKey, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
    default: return {};
  }
}

function containerEnv(image, extra) {
  // PATH from this machine (the image's PATH finds `node` the same way); HOME as the `node` user's would not exist here.
  return { PATH: process.env.PATH, HOME: '/nonexistent', ...image.env, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])) };
}

/** Runs a command inside an image's tree to completion (like `docker run --rm`). */
function runOnce(image, argv, extra, label) {
  return new Promise((resolve, reject) => {
    if (stopping) return reject(new Error('stopping'));
    const child = spawn(argv[0], argv.slice(1), { cwd: image.out, env: containerEnv(image, extra), ...RUN_AS, stdio: ['ignore', 'pipe', 'pipe'] });
    oneShots.add(child);
    child.on('exit', () => oneShots.delete(child));
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${label}: exit ${code}\n${output.slice(-3000)}`))));
  });
}

function startService(service, image, extra) {
  if (stopping) fail('stopping');
  const logFile = path.join(WORK, 'logs', `${service}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(image.cmd[0], image.cmd.slice(1), { cwd: image.out, env: containerEnv(image, extra), ...RUN_AS, stdio: ['ignore', fd, fd] });
  children.set(service, child);
  return child;
}

async function waitHealthy(service, image, extra) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const child = children.get(service);
    if (exited(child)) fail(`${service} exited (${child.exitCode ?? child.signalCode}) before becoming healthy: see ${path.join(WORK, 'logs', `${service}.log`)}\n${tail(service)}`);
    try {
      await runOnce(image, image.healthcheck, extra, `${service} HEALTHCHECK`);
      return;
    } catch (err) {
      if (Date.now() > deadline) fail(`${service}: HEALTHCHECK still failing after 60 s: ${err.message}\n${tail(service)}`);
      await sleep(500);
    }
  }
}

function tail(service) {
  try {
    return readFileSync(path.join(WORK, 'logs', `${service}.log`), 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------------
// The merchant API, signed as the README shows

async function api(method, pathname, body) {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = createHmac('sha256', MERCHANT.secret).update(ts + raw).digest('hex');
  const res = await fetch(`${url('gateway')}/api/v1${pathname}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-Service-Key': MERCHANT.key, 'X-Service-Timestamp': ts, 'X-Service-Signature': sig },
    body: body === undefined ? undefined : raw,
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, body: json };
}

async function expectRefused(promise, pattern, what) {
  const outcome = await promise.then(() => 'succeeded', (err) => err.message);
  if (!pattern.test(outcome)) fail(`${what}: expected a refusal matching ${pattern}, got: ${outcome.slice(0, 500)}`);
}

async function until(what, timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await probe();
    if (last.ok) return last.value;
    await sleep(300);
  }
  fail(`${what}: not reached within ${timeoutMs / 1000} s (last: ${JSON.stringify(last?.seen)})`);
}

async function cashIn(msisdn) {
  const res = await api('POST', '/payments/cashin', { merchant_order_id: `check-images-${tag}-${msisdn.slice(-2)}`, amount: 5000, customer_msisdn: msisdn });
  if (res.status !== 202) fail(`cash-in ${msisdn}: expected 202, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.transaction_id;
}

const transactionStatus = (id, wanted) => async () => {
  const res = await api('GET', `/payments/${id}`);
  return { ok: res.body?.data?.status === wanted, value: res.body.data, seen: res.body?.data?.status ?? res.status };
};

const webhookDelivered = (id, wanted) => async () => {
  const res = await api('GET', `/webhook-events?transaction_id=${id}`);
  const event = (res.body?.data ?? []).find((e) => e.payload?.status === wanted);
  const inbox = await (await fetch(`${url('webhook-inbox')}/webhooks`)).json();
  const received = inbox.data.find((e) => e.body?.transaction_id === id && e.body?.status === wanted);
  return { ok: event?.status === 'DELIVERED' && received?.signature_valid === true, value: event, seen: { event: event?.status, inbox: received?.signature_valid } };
};

async function backofficeDashboard() {
  const base = url('backoffice');
  const jar = new Map();
  const cookies = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  let res = await fetch(`${base}/login`, { headers: { cookie: cookies() } });
  keep(res);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] ?? fail('backoffice: no CSRF token on /login');
  res = await fetch(`${base}/login`, {
    method: 'POST', redirect: 'manual',
    headers: { cookie: cookies(), 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ _csrf: csrf, email: STAFF.email, password: STAFF.password }),
  });
  keep(res);
  if (res.status !== 303) fail(`backoffice: login answered ${res.status}`);
  res = await fetch(`${base}/queues/`, { headers: { cookie: cookies() } });
  const page = await res.text();
  if (res.status !== 200) fail(`backoffice: /queues/ answered ${res.status}`);
  const asset = /(?:src|href)="([^"]*static\/[^"]+\.js)"/.exec(page)?.[1] ?? fail('backoffice: no static script on the dashboard page');
  res = await fetch(new URL(asset, `${base}/queues/`), { headers: { cookie: cookies() } });
  if (res.status !== 200) fail(`backoffice: dashboard asset ${asset} answered ${res.status}`);
  return asset;
}

// ---------------------------------------------------------------------------------------------------

async function stopAll() {
  const codes = {};
  await Promise.all([...children].map(async ([service, child]) => {
    if (!exited(child)) {
      child.kill('SIGTERM');
      const deadline = Date.now() + 30_000;
      while (!exited(child) && Date.now() < deadline) await sleep(100);
      if (!exited(child)) { child.kill('SIGKILL'); await sleep(200); codes[service] = 'killed after 30 s'; return; }
    }
    codes[service] = child.exitCode ?? child.signalCode;
  }));
  return codes;
}

let cleaning;
/** Once, whoever calls first (the end of main, or a signal while main is still running). */
function cleanup() {
  cleaning ??= doCleanup();
  return cleaning;
}

async function doCleanup() {
  stopping = true;
  const all = [...children.values(), ...oneShots];
  for (const child of all) if (!exited(child)) child.kill('SIGKILL');
  await Promise.all(all.map((child) => (exited(child) ? null : new Promise((r) => child.once('exit', r)))));
  if (dbCreation) {
    await dbCreation.catch(() => {});
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    await admin.end();
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  if (KEEP) log(`kept ${WORK}`);
  else rmSync(WORK, { recursive: true, force: true });
}

async function main() {
  const store = process.env.PNPM_STORE_DIR ?? execFileSync('pnpm', ['store', 'path'], { cwd: ROOT, encoding: 'utf8' }).trim();
  chmodSync(WORK, 0o755); // the uid the services run as must reach their trees
  mkdirSync(path.join(WORK, 'logs'));

  const context = buildContext();
  log(`build context: ${context.count} files after .dockerignore`);
  const images = {};
  const dockerfiles = readdirSync(path.join(ROOT, 'infra/docker')).filter((f) => f.endsWith('.Dockerfile')).sort();
  for (const file of dockerfiles) {
    const name = file.replace(/\.Dockerfile$/, '');
    const dockerfile = parseDockerfile(path.join(ROOT, 'infra/docker', file));
    const started = Date.now();
    images[name] = { ...dockerfile, ...buildImage(name, dockerfile, context.dir, store) };
    rmSync(images[name].app, { recursive: true, force: true }); // measured; not needed any more
    log(`built ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s: build stage /app ${images[name].before}, runtime tree ${images[name].after}`);
  }

  const secrets = {
    databaseUrl: Object.assign(new URL(PG_URL), { pathname: `/${DB_NAME}` }).toString(),
    masterKey: randomBytes(32).toString('hex'),
    sessionSecret: randomBytes(32).toString('hex'),
    operatorToken: randomBytes(16).toString('hex'),
    callbackSecret: randomBytes(16).toString('hex'),
    sandboxToken: randomBytes(16).toString('hex'),
  };
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  dbCreation = admin.query(`CREATE DATABASE "${DB_NAME}"`);
  await dbCreation;
  await admin.end();
  log(`database ${DB_NAME}, Redis prefix ${PREFIX}, services as ${RUN_AS.uid === undefined ? 'the current user' : `uid ${RUN_AS.uid}`}`);

  // docker-compose.yml's `migrate`: the admin-cli image's CMD (migrate), then seed:subsidiaries; then what an
  // operator of the production stack does next: a merchant and a back-office account.
  const cli = images['admin-cli'];
  const cliEnv = { DATABASE_URL: secrets.databaseUrl, MASTER_KEY: secrets.masterKey };
  const adminCli = (args, label) => runOnce(cli, [...cli.cmd.slice(0, -1), ...args], cliEnv, `admin-cli ${label}`);
  await runOnce(cli, cli.cmd, cliEnv, 'admin-cli migrate');
  await adminCli(['seed:subsidiaries'], 'seed:subsidiaries');
  await expectRefused(adminCli(['seed'], 'seed'), /refused with NODE_ENV=production/, 'admin-cli seed (demo data) under production');
  const created = JSON.parse((await adminCli(['merchant:create', '--name', 'Check Images', '--webhook-url', `${url('webhook-inbox')}/webhooks`, '--json'], 'merchant:create')).trim().split('\n').pop());
  Object.assign(MERCHANT, { key: created.api_key, secret: created.api_secret });
  await adminCli(['staff:create', '--email', STAFF.email, '--name', 'Check Images', '--role', 'admin', '--password', STAFF.password], 'staff:create');
  log('admin-cli: migrate (the image CMD), seed:subsidiaries, merchant:create and staff:create passed; seed (demo data) refused');

  const order = ['operator-simulator', 'webhook-inbox', 'gateway', 'backoffice', 'operator-bridge', 'expiry-worker', 'refund-worker', 'webhook-dispatcher'];
  for (const service of order) startService(service, images[service], composeEnv(service, secrets));
  for (const service of order) {
    await waitHealthy(service, images[service], composeEnv(service, secrets));
    if (!['operator-simulator', 'webhook-inbox'].includes(service)) {
      const res = await fetch(`${internalUrl(service)}/ready`);
      if (res.status !== 200) fail(`${service}: /ready on its internal port answered ${res.status}`);
    }
    if (service in INTERNAL_PORTS) {
      for (const path of ['/ready', '/metrics']) {
        const res = await fetch(`${url(service)}${path}`, { redirect: 'manual' });
        // 404, or the back-office's login redirect: never the content.
        if (res.status === 200) fail(`${service}: ${path} is served on the public port`);
      }
    }
  }
  log(`every service passed its HEALTHCHECK (and /ready on its internal port where it has one; not on the public one): ${order.join(', ')}`);

  const paid = await cashIn('+2250707000001');
  await until('cash-in SUCCESS', 30_000, transactionStatus(paid, 'SUCCESS'));
  await until('SUCCESS webhook delivered', 30_000, webhookDelivered(paid, 'SUCCESS'));
  log(`cash-in ${paid}: SUCCESS, webhook DELIVERED to the inbox with a valid signature`);

  const refund = await api('POST', '/refunds', { transaction_id: paid, amount: 2000, reason: 'check-images' });
  if (refund.status !== 202) fail(`refund: expected 202, got ${refund.status} ${JSON.stringify(refund.body)}`);
  await until('refund SUCCESS', 30_000, async () => {
    const res = await api('GET', `/refunds/${refund.body.data.refund_id}`);
    return { ok: res.body?.data?.status === 'SUCCESS', value: res.body.data, seen: res.body?.data?.status ?? res.status };
  });
  log(`refund ${refund.body.data.refund_id}: SUCCESS (refund-worker)`);

  const expired = await cashIn('+2250707000006');
  await until('cash-in EXPIRED', 45_000, transactionStatus(expired, 'EXPIRED'));
  await until('EXPIRED webhook delivered', 30_000, webhookDelivered(expired, 'EXPIRED'));
  log(`cash-in ${expired}: EXPIRED (expiry-worker), webhook DELIVERED`);

  // The API reference page's files, when the gateway has one (shipped beside the bundle by bundle.mjs).
  const gatewayDeps = JSON.parse(readFileSync(path.join(ROOT, 'services/gateway/package.json'), 'utf8')).dependencies ?? {};
  if ('swagger-ui-dist' in gatewayDeps) {
    const res = await fetch(`${url('gateway')}/api/v1/docs/assets/swagger-ui-bundle.js`);
    if (res.status !== 200) fail(`gateway: /api/v1/docs/assets/swagger-ui-bundle.js answered ${res.status}`);
    log('gateway: the API reference page\'s Swagger UI files served');
  }

  const asset = await backofficeDashboard();
  log(`backoffice: login, Bull dashboard page and ${asset} served`);

  const bo = images.backoffice;
  const verify = await runOnce(bo, ['node', 'dist/admin-cli.mjs', 'ledger:verify', '--json'], { DATABASE_URL: secrets.databaseUrl, MASTER_KEY: secrets.masterKey }, 'ledger:verify');
  log(`admin-cli from the backoffice image: ledger:verify passed (${verify.trim().split('\n').pop().slice(0, 120)})`);

  const codes = await stopAll();
  const bad = Object.entries(codes).filter(([, code]) => code !== 0);
  if (bad.length) fail(`SIGTERM: not every service exited 0: ${JSON.stringify(codes)}`);
  log('SIGTERM: every service exited 0');

  console.log('\nimage                build stage /app   runtime tree');
  for (const [name, image] of Object.entries(images)) console.log(`${name.padEnd(20)} ${image.before.padStart(16)}   ${image.after.padStart(12)}`);
  console.log('\ncheck-images: OK');
}

let exitCode = 0;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => { cleanup().finally(() => process.exit(130)); });
}
try {
  await main();
} catch (err) {
  console.error(`\ncheck-images: FAILED: ${err.message}`);
  for (const service of children.keys()) console.error(`--- last lines of ${service}'s log\n${tail(service)}`);
  if (!KEEP) console.error('(run with --keep to keep the trees and the service logs)');
  exitCode = 1;
} finally {
  await cleanup().catch((err) => { console.error(`cleanup: ${err.message}`); exitCode = 1; });
}
process.exit(exitCode);
