import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { parseEnv as adminEnv, runCommand } from '@mm/admin-cli';
import { parseEnv as backofficeEnv } from '@mm/backoffice';
import { databaseOptions, type CommonEnv } from '@mm/config';
import { createServiceDb } from '@mm/db/service-db';
import { parseEnv as expiryEnv } from '@mm/expiry-worker';
import { parseEnv as gatewayEnv } from '@mm/gateway';
import { parseEnv as portalEnv } from '@mm/merchant-portal';
import { parseEnv as bridgeEnv } from '@mm/operator-bridge';
import { createRedisConnection, redisTargetOf } from '@mm/queues';
import { parseEnv as refundEnv } from '@mm/refund-worker';
import { parseEnv as dispatcherEnv } from '@mm/webhook-dispatcher';
import {
  freePort,
  postgresBinDir,
  PrivatePostgres,
  PrivateRedisCluster,
  redisAnswers,
  registerEngine,
  unregisterEngine,
  waitFor,
} from '@mm/testing';
import {
  composeConfig,
  composeSecrets,
  endpointsOf,
  environmentOf,
  onThisMachine,
  REPO,
  type ComposeFile,
} from './support/compose.js';
import { ScriptEngine } from './support/script-engine.js';

/**
 * docker-compose.yml and its topologies (infra/compose/*.yml), checked as far as a machine without a
 * Docker engine allows (`pnpm test:engines`):
 * - Compose itself (`docker-compose config`) validates each overlay, merges it into the root file and
 *   interpolates it;
 * - every service's merged environment is accepted by the service's own parseEnv, names only services
 *   of the file, and the service waits for the engines it names;
 * - the engines' files run on this machine's engines, with the settings the file gives the services and
 *   only the addresses changed: PgBouncer with the overlay's ini and entrypoint, in front of a PostgreSQL
 *   with a password and the overlay's pg_hba.conf, passes every service's start check (the timeouts its
 *   connections carry); the replica's start script makes a streaming replica of that PostgreSQL; the
 *   sentinel script watches a redis-server the services then reach through it; the cluster script joins
 *   three redis-servers the services then use.
 * Not run: the images, the containers, Compose's networking and healthchecks (no Docker engine here).
 */
const run = promisify(execFile);
const secrets = composeSecrets();
const ROOT_FILE = 'docker-compose.yml';
const overlay = (name: string) => `infra/compose/${name}.yml`;
const repoFile = (p: string) => path.join(REPO, p);

/** Our services and how each reads its environment (the migrate one-shot is admin-cli's). */
const SERVICES: Record<string, (env: NodeJS.ProcessEnv) => CommonEnv & { NODE_ENV?: string }> = {
  gateway: gatewayEnv,
  backoffice: backofficeEnv,
  'merchant-portal': portalEnv,
  'operator-bridge': bridgeEnv,
  'expiry-worker': expiryEnv,
  'refund-worker': refundEnv,
  'webhook-dispatcher': dispatcherEnv,
};
const ADDRESS_SETTINGS = [
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'DATABASE_REPLICA_URL',
  'REDIS_URL',
  'REDIS_SENTINELS',
  'REDIS_CLUSTER_NODES',
];

/** What every topology must hold: each service's environment parses, and names only services it waits for. */
function expectConsistent(file: ComposeFile): void {
  for (const [name, parse] of Object.entries(SERVICES)) {
    const env = environmentOf(file, name);
    expect(() => parse(env)).not.toThrow();
    const named = new Set(
      ADDRESS_SETTINGS.filter((k) => env[k]).flatMap((k) => endpointsOf(env[k]!).map((e) => e.host)),
    );
    const waitsFor = Object.keys(file.services[name]!.depends_on ?? {});
    for (const host of named) {
      // A cluster's nodes are waited for through the one-shot that joins them; the replica is not waited
      // for at all (while it is down or still copying, its reads go to the primary).
      const waited = host.startsWith('redis-cluster-') ? 'redis-cluster-create' : host;
      expect({
        service: name,
        names: host,
        isAService: host in file.services,
        waitsFor: host === 'postgres-replica' || waitsFor.includes(waited),
      }).toEqual({ service: name, names: host, isAService: true, waitsFor: true });
    }
  }
  expect(() => adminEnv(environmentOf(file, 'migrate'))).not.toThrow();
}

describe('docker-compose.yml and its topologies, validated and merged by Compose', () => {
  it('the root file alone: the default topology, every service on PostgreSQL and Redis directly', async () => {
    const file = await composeConfig([ROOT_FILE], secrets, ['demo']);
    expectConsistent(file);
    for (const name of Object.keys(SERVICES)) {
      const env = environmentOf(file, name);
      expect([env.DB_POOLING, env.REDIS_SENTINELS, env.REDIS_CLUSTER_NODES, env.DATABASE_REPLICA_URL]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    }
  });

  it('pgbouncer.yml: every service through PgBouncer in transaction mode on its entry, LISTEN and migrate direct', async () => {
    const file = await composeConfig([ROOT_FILE, overlay('pgbouncer')], secrets, ['demo']);
    expectConsistent(file);
    for (const name of Object.keys(SERVICES)) {
      const env = environmentOf(file, name);
      expect({
        name,
        pooling: env.DB_POOLING,
        pooler: endpointsOf(env.DATABASE_URL!)[0],
        entry: new URL(env.DATABASE_URL!).pathname,
        direct: endpointsOf(env.DATABASE_DIRECT_URL!)[0],
      }).toEqual({
        name,
        pooling: 'transaction',
        pooler: { host: 'pgbouncer', port: 6432 },
        entry: name === 'gateway' ? '/mm_gateway' : '/mm_workers',
        direct: { host: 'postgres', port: 5432 },
      });
      expect(file.services[name]!.depends_on).toHaveProperty('pgbouncer', { condition: 'service_healthy' });
    }
    expect(endpointsOf(environmentOf(file, 'migrate').DATABASE_URL!)[0]).toEqual({ host: 'postgres', port: 5432 });
  });

  it('read-replica.yml: exports and searches (gateway, back-office) on the replica, nothing else', async () => {
    const file = await composeConfig([ROOT_FILE, overlay('read-replica')], secrets, ['demo']);
    expectConsistent(file);
    for (const name of Object.keys(SERVICES)) {
      const replica = environmentOf(file, name).DATABASE_REPLICA_URL;
      expect({ name, replica: replica && endpointsOf(replica)[0] }).toEqual({
        name,
        replica: ['gateway', 'backoffice'].includes(name) ? { host: 'postgres-replica', port: 5432 } : undefined,
      });
    }
    expect(file.services.postgres!.command).toEqual(['postgres', '-c', 'hba_file=/etc/mm/pg_hba.conf']);
  });

  it('redis-sentinel.yml: every service asks the three sentinels for the primary they watch', async () => {
    const file = await composeConfig([ROOT_FILE, overlay('redis-sentinel')], secrets, ['demo']);
    expectConsistent(file);
    const sentinels = ['redis-sentinel-1', 'redis-sentinel-2', 'redis-sentinel-3'];
    for (const s of sentinels)
      expect(environmentOf(file, s)).toMatchObject({ MASTER_HOST: 'redis', SENTINEL_MASTER: 'mymaster' });
    for (const name of Object.keys(SERVICES)) {
      const env = environmentOf(file, name);
      expect(endpointsOf(env.REDIS_SENTINELS!)).toEqual(sentinels.map((host) => ({ host, port: 26379 })));
      expect(env.REDIS_SENTINEL_MASTER).toBe('mymaster');
      for (const s of sentinels) expect(file.services[name]!.depends_on).toHaveProperty(s);
    }
  });

  it('redis-cluster.yml: every service on the three nodes with the hash-tag prefix, after the one-shot that joins them', async () => {
    const file = await composeConfig([ROOT_FILE, overlay('redis-cluster')], secrets, ['demo']);
    expectConsistent(file);
    const nodes = ['redis-cluster-1', 'redis-cluster-2', 'redis-cluster-3'];
    expect(environmentOf(file, 'redis-cluster-create').CLUSTER_NODES!.split(' ')).toEqual(
      nodes.map((n) => `${n}:6379`),
    );
    for (const name of Object.keys(SERVICES)) {
      const env = environmentOf(file, name);
      expect({ nodes: endpointsOf(env.REDIS_CLUSTER_NODES!), prefix: env.REDIS_PREFIX }).toEqual({
        nodes: nodes.map((host) => ({ host, port: 6379 })),
        prefix: '{mm}',
      });
      expect(file.services[name]!.depends_on).toHaveProperty('redis-cluster-create', {
        condition: 'service_completed_successfully',
      });
    }
  });

  it('PgBouncer, the read replica and Sentinel together', async () => {
    const file = await composeConfig(
      [ROOT_FILE, overlay('pgbouncer'), overlay('read-replica'), overlay('redis-sentinel')],
      secrets,
      ['demo'],
    );
    expectConsistent(file);
    expect(environmentOf(file, 'gateway')).toMatchObject({
      DB_POOLING: 'transaction',
      REDIS_SENTINEL_MASTER: 'mymaster',
    });
    expect(environmentOf(file, 'gateway').DATABASE_REPLICA_URL).toContain('@postgres-replica:5432/');
  });

  it('Compose refuses an overlay that does not hold (the check has teeth)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mm-compose-'));
    try {
      const broken = path.join(dir, 'broken.yml');
      writeFileSync(
        broken,
        'services:\n  gateway:\n    depends_on:\n      pgbouncer:\n        condition: service_healthy\n',
      );
      await expect(composeConfig([ROOT_FILE, broken], secrets)).rejects.toThrow(/pgbouncer/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the topologies' engine files, run on this machine's engines", () => {
  const PG_PATH = `${postgresBinDir()}:/usr/sbin:/usr/bin:/bin`;
  let primary: PrivatePostgres;
  let hbaDir: string;

  beforeAll(async () => {
    // The overlay's pg_hba.conf, copied where the server's OS user can read it.
    hbaDir = mkdtempSync(path.join(tmpdir(), 'mm-compose-hba-'));
    copyFileSync(repoFile('infra/compose/postgres/pg_hba.conf'), path.join(hbaDir, 'pg_hba.conf'));
    await run('chmod', ['755', hbaDir]);
    primary = await PrivatePostgres.start({
      password: secrets.POSTGRES_PASSWORD!,
      hbaFile: path.join(hbaDir, 'pg_hba.conf'),
    });
    const admin = new pg.Client({ connectionString: primary.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE mobilemoney');
    await admin.end();
    // As the stack's migrate one-shot does it: live by default, so its simulator accounts are disabled.
    await runCommand(['migrate'], adminEnv({ DATABASE_URL: primary.url('mobilemoney'), DEPLOYMENT_MODE: 'live' }));
  }, 120_000);
  afterAll(async () => {
    await primary?.stop();
    if (hbaDir) rmSync(hbaDir, { recursive: true, force: true });
  });

  it('the primary asks for a password over the network (pg_hba.conf): a login without one is refused', async () => {
    const anonymous = new pg.Client({
      connectionString: `postgresql://postgres@127.0.0.1:${primary.port}/mobilemoney`,
    });
    anonymous.on('error', () => undefined);
    await expect(anonymous.connect()).rejects.toThrow(/password/);
    await anonymous.end().catch(() => undefined);
  });

  it("pgbouncer.yml's PgBouncer (its ini and entrypoint) with the services' settings: every service passes its start check through its entry", async () => {
    const file = await composeConfig([ROOT_FILE, overlay('pgbouncer')], secrets);
    const port = await freePort();
    // The overlay's ini with only its addresses moved to this machine (each line checked to be there).
    const ini = readFileSync(repoFile('infra/compose/pgbouncer/pgbouncer.ini'), 'utf8');
    const moves: [string, string][] = [
      ['host=postgres port=5432', `host=127.0.0.1 port=${primary.port}`],
      ['listen_addr = 0.0.0.0', 'listen_addr = 127.0.0.1'],
      ['listen_port = 6432', `listen_port = ${port}`],
    ];
    const bouncer = await ScriptEngine.start((dir) => {
      let local = ini;
      for (const [from, to] of moves) {
        expect(local).toContain(from);
        local = local.split(from).join(to);
      }
      expect(local).toContain('auth_file = /run/pgbouncer/userlist.txt');
      local = local.replace('auth_file = /run/pgbouncer/userlist.txt', `auth_file = ${dir}/userlist.txt`);
      writeFileSync(path.join(dir, 'pgbouncer.ini'), `${local}\nlogfile = ${dir}/pgbouncer.log\n`);
      return {
        shell: 'sh',
        script: repoFile('infra/compose/pgbouncer/entrypoint.sh'),
        asPostgres: true,
        what: "the overlay's PgBouncer",
        env: {
          PATH: PG_PATH,
          ...environmentOf(file, 'pgbouncer'),
          USERLIST: `${dir}/userlist.txt`,
          PGBOUNCER_INI: path.join(dir, 'pgbouncer.ini'),
        },
        ready: () => answers(`postgresql://postgres:${secrets.POSTGRES_PASSWORD}@127.0.0.1:${port}/mm_workers`),
      };
    });
    try {
      for (const [name, parse] of Object.entries(SERVICES)) {
        const env = parse(
          onThisMachine(environmentOf(file, name), {
            'pgbouncer:6432': `127.0.0.1:${port}`,
            'postgres:5432': `127.0.0.1:${primary.port}`,
          }),
        );
        // What the service does at start: refuses unless the pooler's connections carry its timeouts.
        const db = await createServiceDb({
          ...databaseOptions(env),
          nodeEnv: env.NODE_ENV,
          deploymentMode: env.DEPLOYMENT_MODE,
          secretBox: null,
        });
        await db.$disconnect();
      }
      // The same check refuses a worker sent to the gateway's entry: the entries' timeouts are what passed.
      const worker = bridgeEnv(
        onThisMachine(
          { ...environmentOf(file, 'operator-bridge'), DATABASE_URL: environmentOf(file, 'gateway').DATABASE_URL! },
          {
            'pgbouncer:6432': `127.0.0.1:${port}`,
            'postgres:5432': `127.0.0.1:${primary.port}`,
          },
        ),
      );
      await expect(
        createServiceDb({
          ...databaseOptions(worker),
          nodeEnv: worker.NODE_ENV,
          deploymentMode: worker.DEPLOYMENT_MODE,
          secretBox: null,
        }),
      ).rejects.toThrow(/statement_timeout 2000 ms/);
    } finally {
      await bouncer.stop();
    }
  }, 120_000);

  it("read-replica.yml's start script makes a streaming replica the gateway's DATABASE_REPLICA_URL reads, and starts it again on its own copy", async () => {
    const file = await composeConfig([ROOT_FILE, overlay('read-replica')], secrets);
    const port = await freePort();
    const replicaUrl = onThisMachine(environmentOf(file, 'gateway'), {
      'postgres-replica:5432': `127.0.0.1:${port}`,
    }).DATABASE_REPLICA_URL!;
    const options = (dir: string) => ({
      shell: 'bash' as const,
      script: repoFile('infra/compose/postgres/start-replica.sh'),
      asPostgres: true,
      what: "the overlay's replica",
      args: ['-c', `port=${port}`, '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`],
      env: {
        PATH: PG_PATH,
        ...environmentOf(file, 'postgres-replica'),
        PRIMARY_HOST: '127.0.0.1',
        PRIMARY_PORT: String(primary.port),
        PGDATA: path.join(dir, 'data'),
      },
      ready: () => answers(replicaUrl),
      stopSignal: 'SIGINT' as const,
    });
    let replica = await ScriptEngine.start(options);
    try {
      expect(await one(replicaUrl, 'SELECT pg_is_in_recovery() AS v')).toBe(true);
      const marker = `compose_${Date.now()}`;
      await one(primary.url('mobilemoney'), `CREATE TABLE ${marker} (v int); INSERT INTO ${marker} VALUES (42)`);
      await waitFor(
        async () => (await one(replicaUrl, `SELECT to_regclass('${marker}') IS NOT NULL AS v`)) || undefined,
        { what: 'the replica to replay the primary', timeoutMs: 15_000 },
      );
      // A restart finds its copy and follows the primary again (pg_basebackup into it would fail: not empty).
      await replica.stop({ keepDir: true });
      replica = await ScriptEngine.start(options, replica.dir);
      await one(primary.url('mobilemoney'), `INSERT INTO ${marker} VALUES (43)`);
      await waitFor(
        async () => Number(await one(replicaUrl, `SELECT count(*)::int AS v FROM ${marker}`)) === 2 || undefined,
        { what: 'the restarted replica to replay', timeoutMs: 15_000 },
      );
    } finally {
      await replica.stop();
    }
  }, 120_000);
});

describe("the Redis topologies' scripts, run on this machine's redis-server", () => {
  it("redis-sentinel.yml's sentinel watches the primary; the services reach it through the sentinel; a restart keeps what it learnt", async () => {
    const file = await composeConfig([ROOT_FILE, overlay('redis-sentinel')], secrets);
    const primaryPort = await freePort();
    const primaryDir = mkdtempSync(path.join(tmpdir(), 'mm-compose-redis-'));
    const redis = spawn(
      'redis-server',
      [
        '--port',
        String(primaryPort),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
        '--dir',
        primaryDir,
      ],
      { stdio: 'ignore', detached: true },
    );
    const redisEngine = {
      killSync: () => {
        redis.kill('SIGKILL');
        rmSync(primaryDir, { recursive: true, force: true });
      },
    };
    registerEngine(redisEngine);
    const sentinelPort = await freePort();
    const options = (dir: string) => ({
      shell: 'sh' as const,
      script: repoFile('infra/compose/redis/start-sentinel.sh'),
      what: "the overlay's sentinel",
      // One sentinel here, where the file runs three with a quorum of 2.
      env: {
        PATH: process.env.PATH ?? '',
        ...environmentOf(file, 'redis-sentinel-1'),
        MASTER_HOST: '127.0.0.1',
        MASTER_PORT: String(primaryPort),
        SENTINEL_PORT: String(sentinelPort),
        QUORUM: '1',
        SENTINEL_CONF: path.join(dir, 'sentinel.conf'),
      },
      ready: () => redisAnswers(sentinelPort),
    });
    let sentinel: ScriptEngine | undefined;
    try {
      await waitFor(async () => (await redisAnswers(primaryPort)) || undefined, {
        what: 'redis-server',
        timeoutMs: 10_000,
      });
      sentinel = await ScriptEngine.start(options);
      const env = gatewayEnv(
        onThisMachine(
          environmentOf(file, 'gateway'),
          Object.fromEntries(
            ['redis-sentinel-1', 'redis-sentinel-2', 'redis-sentinel-3'].map((s) => [
              `${s}:26379`,
              `127.0.0.1:${sentinelPort}`,
            ]),
          ),
        ),
      );
      const client = createRedisConnection(redisTargetOf(env), { maxRetriesPerRequest: 3 });
      try {
        await client.set(`${env.REDIS_PREFIX}:compose-check`, 'through the sentinel');
        const direct = await run('redis-cli', ['-p', String(primaryPort), 'get', `${env.REDIS_PREFIX}:compose-check`]);
        expect(direct.stdout.trim()).toBe('through the sentinel');
      } finally {
        client.disconnect();
      }
      const conf = () => readFileSync(path.join(sentinel!.dir, 'sentinel.conf'), 'utf8');
      const myid = () => /sentinel myid (\w+)/.exec(conf())?.[1];
      await waitFor(() => myid(), { what: 'the sentinel to write what it learnt', timeoutMs: 10_000 });
      const learnt = myid();
      await sentinel.stop({ keepDir: true });
      sentinel = await ScriptEngine.start(options, sentinel.dir);
      expect(myid()).toBe(learnt);
    } finally {
      await sentinel?.stop();
      unregisterEngine(redisEngine);
      redisEngine.killSync();
    }
  }, 60_000);

  it("redis-cluster.yml's create script joins three nodes, does nothing the second time, and the services use the cluster", async () => {
    const file = await composeConfig([ROOT_FILE, overlay('redis-cluster')], secrets);
    const createScript = repoFile('infra/compose/redis/create-cluster.sh');
    // The nodes by name, as the file gives them (resolved by the script), here `localhost`.
    const join = (nodes: string[]) =>
      run('sh', [createScript], {
        env: {
          PATH: process.env.PATH ?? '',
          CLUSTER_NODES: nodes.map((n) => n.replace('127.0.0.1', 'localhost')).join(' '),
        },
      });
    let formed = '';
    const cluster = await PrivateRedisCluster.start(3, {
      join: async (nodes) => {
        formed = (await join(nodes)).stdout;
      },
    });
    try {
      expect(formed).toMatch(/All 16384 slots covered/);
      const again = await join(cluster.ports.map((p) => `127.0.0.1:${p}`));
      expect(again.stdout).toMatch(/already formed/);
      const names = ['redis-cluster-1', 'redis-cluster-2', 'redis-cluster-3'];
      const env = gatewayEnv(
        onThisMachine(
          environmentOf(file, 'gateway'),
          Object.fromEntries(names.map((n, i) => [`${n}:6379`, `127.0.0.1:${cluster.ports[i]}`])),
        ),
      );
      const client = createRedisConnection(redisTargetOf(env), { maxRetriesPerRequest: 3 });
      try {
        await client.set(`${env.REDIS_PREFIX}:compose-check`, 'on the cluster');
        expect(await client.get(`${env.REDIS_PREFIX}:compose-check`)).toBe('on the cluster');
      } finally {
        client.disconnect();
      }
    } finally {
      await cluster.stop();
    }
  }, 60_000);
});

/** Whether a login with this URL runs a statement. */
async function answers(url: string): Promise<boolean> {
  try {
    await one(url, 'SELECT 1 AS v');
    return true;
  } catch {
    return false;
  }
}

/** The column `v` of the first row of the last statement. */
async function one(url: string, sql: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const result = await client.query(sql);
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return (last as pg.QueryResult<{ v: unknown }>).rows[0]?.v;
  } finally {
    await client.end();
  }
}
