import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { registerEngine, unregisterEngine } from './engine-registry.js';
import { freePort } from './free-port.js';
import { osUserPostgres } from './os-user.js';
import { waitFor } from './wait-for.js';

export interface PooledDatabase {
  /** The database on the server behind the pooler. */
  dbname: string;
  /** Set on each server connection the pooler opens (PgBouncer's connect_query): the services' timeouts. */
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

export interface PgBouncerOptions {
  /** The PostgreSQL server behind it (the machine's by default). */
  upstream?: { host: string; port: number };
  /** Server connections per database entry (PgBouncer's default_pool_size). */
  poolSize?: number;
}

const BINARY = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/**
 * A real PgBouncer in transaction pooling mode (Debian's package), on a free loopback port, as the user
 * postgres when this process is root (PgBouncer refuses root): what a platform puts between the services
 * and PostgreSQL. Each database entry is an alias carrying the timeouts of the services that use it
 * (connect_query), added on demand and picked up by a reload (SIGHUP). stop() ends it and deletes its
 * directory; so does this process's exit.
 */
export class PgBouncer {
  private readonly entries = new Map<string, PooledDatabase>();
  private exited = false;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly o: Required<PgBouncerOptions>,
  ) {
    child.once('exit', () => {
      this.exited = true;
    });
  }

  static async start(o: PgBouncerOptions = {}): Promise<PgBouncer> {
    if (!existsSync(BINARY))
      throw new Error(`no PgBouncer at ${BINARY} (apt-get install pgbouncer, or set PGBOUNCER_BIN)`);
    const options = { upstream: o.upstream ?? { host: '127.0.0.1', port: 5432 }, poolSize: o.poolSize ?? 20 };
    const dir = mkdtempSync(path.join(tmpdir(), 'mm-pgbouncer-'));
    const port = await freePort();
    writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
    writeFileSync(path.join(dir, 'pgbouncer.ini'), config(dir, port, new Map()));
    const owner = osUserPostgres();
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const child = spawn(BINARY, [...(owner ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const bouncer = new PgBouncer(port, dir, child, options);
    registerEngine(bouncer);
    try {
      await waitFor(
        async () => {
          if (bouncer.exited) throw new Error(`pgbouncer exited: ${stderr.trim()} ${bouncer.log()}`);
          return (await bouncer.answers('pgbouncer')) || undefined;
        },
        { what: `pgbouncer on ${port}`, timeoutMs: 10_000, intervalMs: 50 },
      );
    } catch (err) {
      await bouncer.stop();
      throw err;
    }
    return bouncer;
  }

  /**
   * The URL of an alias of `db.dbname` whose server connections run with `db`'s timeouts, added (and
   * the pooler reloaded) the first time they are asked for.
   */
  async url(db: PooledDatabase): Promise<string> {
    const alias = `${db.dbname}_s${db.statementTimeoutMs}_l${db.lockTimeoutMs}`;
    if (!this.entries.has(alias)) {
      this.entries.set(alias, db);
      writeFileSync(path.join(this.dir, 'pgbouncer.ini'), config(this.dir, this.port, this.entries, this.o));
      this.child.kill('SIGHUP');
      await waitFor(async () => (await this.answers(alias)) || undefined, {
        what: `pgbouncer to serve ${alias}`,
        timeoutMs: 10_000,
        intervalMs: 50,
      });
    }
    return `postgresql://postgres@127.0.0.1:${this.port}/${alias}`;
  }

  /** Its log (connections, errors, reloads): for a failing test's message. */
  log(): string {
    try {
      return readFileSync(path.join(this.dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    unregisterEngine(this);
    if (!this.exited) {
      const gone = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await gone;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Whether a connection through it to `alias` runs a statement (the admin console for 'pgbouncer'). */
  private async answers(alias: string): Promise<boolean> {
    const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${this.port}/${alias}` });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query(alias === 'pgbouncer' ? 'SHOW VERSION' : 'SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** For the exit hook: nothing asynchronous left to wait for. */
  killSync(): void {
    if (!this.exited) this.child.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function config(
  dir: string,
  port: number,
  entries: Map<string, PooledDatabase>,
  o?: Required<PgBouncerOptions>,
): string {
  const upstream = o?.upstream ?? { host: '127.0.0.1', port: 5432 };
  const databases = [...entries].map(
    ([alias, db]) =>
      `${alias} = host=${upstream.host} port=${upstream.port} dbname=${db.dbname} user=postgres ` +
      `connect_query='SET statement_timeout = ${db.statementTimeoutMs}; SET lock_timeout = ${db.lockTimeoutMs}'`,
  );
  return [
    '[databases]',
    ...databases,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    // The admin console (SHOW POOLS, SHOW CLIENTS) for the suite's checks.
    'admin_users = postgres',
    'pool_mode = transaction',
    `default_pool_size = ${o?.poolSize ?? 20}`,
    'max_client_conn = 1000',
    // A query waits at most 2 s for a server connection (120 s by default), and a server that cannot be
    // reached is tried again after 1 s (15 s): PostgreSQL gone, a request fails in the gateway's bound
    // (docs/deployment.md gives the same settings for production).
    'query_wait_timeout = 2',
    'server_connect_timeout = 1',
    'server_login_retry = 1',
    `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    '',
  ].join('\n');
}
