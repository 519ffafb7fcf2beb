import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { registerEngine, unregisterEngine } from './engine-registry.js';
import { osUserPostgres } from './os-user.js';
import { waitFor } from './wait-for.js';

export interface PrivatePostgresOptions {
  /** max_connections: how many clients fill it (connectionsUntilRefused). */
  maxConnections?: number;
  /** Where the server's own output goes (appended across restarts). */
  logFile?: string;
  /**
   * The superuser's password (in url() too), for a server whose client authentication asks for one:
   * with hbaFile, what a deployment's PostgreSQL does (the default trusts every local connection).
   */
  password?: string;
  /** Its pg_hba.conf (hba_file), instead of initdb's. */
  hbaFile?: string;
}

/** SQLSTATE of "sorry, too many clients already". */
const TOO_MANY_CONNECTIONS = '53300';

/**
 * A PostgreSQL cluster of the suite's own, made by initdb from the machine's binaries in a temporary
 * directory and started on a free loopback port: the suite kills it, terminates its connections and
 * fills it without touching the machine's shared server (every other test's databases are there). It
 * keeps nothing worth keeping, so it trades durability against a crash of the machine for speed (fsync
 * off), and stop() deletes it. Never against a crash of PostgreSQL itself: a commit is acknowledged only
 * once its WAL is written out of the server's memory (synchronous_commit on, as in production), so the
 * kill -9 the suite does loses nothing PostgreSQL said was committed. With synchronous_commit off it lost
 * the last ones, and the load then found a cash-in it had read as SUCCESS back to PENDING.
 */
export class PrivatePostgres {
  private server: ChildProcess | null = null;
  private admin: pg.Client | null = null;
  private boots = 0;

  private constructor(
    readonly port: number,
    /** The temporary directory: the data directory and the server's unix socket are inside. */
    readonly dir: string,
    private readonly bin: string,
    private readonly owner: { uid: number; gid: number } | null,
    private readonly o: PrivatePostgresOptions,
  ) {}

  static async start(o: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    const owner = osUserPostgres();
    const dir = mkdtempSync(path.join(tmpdir(), 'mm-chaos-pg-'));
    const cluster = new PrivatePostgres(await freePort(), dir, bin, owner, o);
    registerEngine(cluster);
    try {
      if (owner) chownSync(dir, owner.uid, owner.gid);
      if (o.password !== undefined) {
        writeFileSync(cluster.passwordFile, `${o.password}\n`, { mode: 0o600 });
        if (owner) chownSync(cluster.passwordFile, owner.uid, owner.gid);
      }
      await cluster.run('initdb', [
        '-D',
        cluster.dataDir,
        '-U',
        'postgres',
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
        '--no-sync',
        '--no-instructions',
        ...(o.password !== undefined ? [`--pwfile=${cluster.passwordFile}`] : []),
      ]);
      if (o.password !== undefined) rmSync(cluster.passwordFile);
      await cluster.boot();
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /**
   * A streaming replica of `primary` (pg_basebackup -R writes its standby.signal and primary_conninfo),
   * on a port of its own and read-only (hot standby): what a platform's read replica is. Its data
   * follows the primary's WAL as it is written; pauseReplay() holds it back.
   */
  static async startStandby(primary: PrivatePostgres, o: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
    const owner = osUserPostgres();
    const dir = mkdtempSync(path.join(tmpdir(), 'mm-pg-standby-'));
    const standby = new PrivatePostgres(await freePort(), dir, postgresBinDir(), owner, o);
    registerEngine(standby);
    try {
      if (owner) chownSync(dir, owner.uid, owner.gid);
      await standby.run('pg_basebackup', [
        '-D',
        standby.dataDir,
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
        '--no-sync',
      ]);
      await standby.boot();
    } catch (err) {
      await standby.stop();
      throw err;
    }
    return standby;
  }

  /** On a standby: WAL replay paused (true) or resumed (false), as a replica falling behind. */
  async pauseReplay(paused: boolean): Promise<void> {
    await this.adminClient().query(paused ? 'SELECT pg_wal_replay_pause()' : 'SELECT pg_wal_replay_resume()');
  }

  /**
   * On a standby: its link to the primary cut (primary_conninfo emptied and reloaded: its WAL receiver
   * stops, what it received is replayed, nothing more comes), or restored as pg_basebackup wrote it.
   * Resolves once its WAL receiver is gone, or streaming again.
   */
  async cutReplication(cut: boolean): Promise<void> {
    const admin = this.adminClient();
    if (cut) {
      this.primaryConninfo ??= (
        await admin.query<{ primary_conninfo: string }>('SHOW primary_conninfo')
      ).rows[0]!.primary_conninfo;
      await admin.query("ALTER SYSTEM SET primary_conninfo = ''");
    } else {
      if (this.primaryConninfo === null) throw new Error('cutReplication(false) before cutReplication(true)');
      await admin.query(`ALTER SYSTEM SET primary_conninfo = ${pg.escapeLiteral(this.primaryConninfo)}`);
    }
    await admin.query('SELECT pg_reload_conf()');
    await waitFor(
      async () => {
        const { rows } = await admin.query<{ streaming: boolean }>(
          "SELECT count(*) FILTER (WHERE status = 'streaming') > 0 AS streaming FROM pg_stat_wal_receiver",
        );
        return rows[0]!.streaming === !cut || undefined;
      },
      { what: `the standby on ${this.port} to ${cut ? 'stop' : 'start'} receiving WAL`, timeoutMs: 15_000 },
    );
  }

  private primaryConninfo: string | null = null;

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  private get passwordFile(): string {
    return path.join(this.dir, 'password');
  }

  /** The URL of one of its databases, as superuser postgres. */
  url(db: string): string {
    const credentials = this.o.password !== undefined ? `postgres:${encodeURIComponent(this.o.password)}` : 'postgres';
    return `postgresql://${credentials}@127.0.0.1:${this.port}/${db}`;
  }

  get running(): boolean {
    return this.server !== null && this.server.exitCode === null && this.server.signalCode === null;
  }

  /** initdb and the server refuse to run as root: as root, they run as the OS user postgres. */
  private run(tool: string, args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(this.bin, tool), args, { ...this.identity(), stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${tool} exited ${code}: ${stderr.trim()}`)),
      );
    });
  }

  /** As the server's owner, in its directory (the one it can surely enter). */
  private identity(): { uid?: number; gid?: number; cwd: string } {
    return { ...this.owner, cwd: this.dir };
  }

  private async boot(): Promise<void> {
    // A new file for each run of the suite, appended to across restarts within it.
    const log = this.o.logFile ? openSync(this.o.logFile, this.boots++ === 0 ? 'w' : 'a') : 'ignore';
    try {
      // Out of the run's process group (detached): a Ctrl-C of the run is handled by the hooks below,
      // which also remove the directory, instead of reaching the server as a shutdown request.
      this.server = spawn(
        path.join(this.bin, 'postgres'),
        [
          '-D',
          this.dataDir,
          '-p',
          String(this.port),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          `unix_socket_directories=${this.dir}`,
          '-c',
          `max_connections=${this.o.maxConnections ?? 100}`,
          '-c',
          'fsync=off',
          '-c',
          'full_page_writes=off',
          // Who waited on which lock, with the statement, in its log: what a scenario's slow answer was stuck on.
          '-c',
          'log_lock_waits=on',
          '-c',
          'log_line_prefix=%m [%p] %a: ',
          // In the data directory rather than /dev/shm: a kill -9 leaves nothing behind outside the temporary directory.
          '-c',
          'dynamic_shared_memory_type=mmap',
          ...(this.o.hbaFile ? ['-c', `hba_file=${this.o.hbaFile}`] : []),
        ],
        { ...this.identity(), detached: true, stdio: ['ignore', log, log] },
      );
    } finally {
      if (typeof log === 'number') closeSync(log);
    }
    const server = this.server;
    await waitFor(
      async () => {
        if (server.exitCode !== null || server.signalCode !== null)
          throw new Error(`postgres on ${this.port} exited (see ${this.o.logFile ?? 'its output'})`);
        const probe = new pg.Client({ connectionString: this.url('postgres') });
        // Refused, or "the database system is starting up" (crash recovery after a kill): not yet.
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          await probe.query('SELECT 1');
          return true;
        } catch {
          return false;
        } finally {
          await probe.end().catch(() => undefined);
        }
      },
      { what: `postgres on ${this.port}`, timeoutMs: 30_000, intervalMs: 50 },
    );
    this.admin = await this.connect('postgres');
  }

  private async connect(db: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url(db) });
    // Its server may be killed or end it on purpose: the next query fails, the process goes on.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  private adminClient(): pg.Client {
    if (!this.admin) throw new Error('the private postgres is not running');
    return this.admin;
  }

  /**
   * kill -9 of the postmaster: nothing is shut down, every connection drops, the next start runs crash
   * recovery. Its backends (each a session of its own, out of reach of a group kill) end by themselves as
   * they notice, a statement running may still finish; returns once none is left: until then the old
   * shared memory is in use and a new postmaster refuses to start.
   */
  async killImmediate(): Promise<void> {
    this.admin = null;
    const server = this.server;
    if (!server || !this.running) return;
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    server.kill('SIGKILL');
    await exited;
    await waitFor(() => segmentAttachments(this.dataDir) === 0, {
      what: `the backends of the killed postgres on ${this.port} to end`,
      timeoutMs: 15_000,
      intervalMs: 20,
    });
  }

  /**
   * What `pg_ctlcluster … stop -m immediate` does to a machine's server (pg_ctl's immediate mode): every
   * backend told to quit at once, each connection ended with a FATAL, no checkpoint; the next start
   * (restart()) runs crash recovery. Unlike killImmediate, no backend goes on with its statement.
   */
  async stopImmediate(): Promise<void> {
    await this.admin?.end().catch(() => undefined);
    this.admin = null;
    const server = this.server;
    if (!server || !this.running) return;
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    await this.run('pg_ctl', ['-D', this.dataDir, 'stop', '-m', 'immediate', '-w']);
    await exited;
  }

  /** Started again on the same port and data (killed -9 first if it runs); recovers what was committed. */
  async restart(downMs = 0): Promise<void> {
    await this.killImmediate();
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.boot();
  }

  /**
   * Ends every other connection to `db` at once (pg_terminate_backend). With `onlyMidTransaction`, only
   * when at least one of them is inside a transaction right now (else ends none): the caller repeats it
   * until it hits. Returns how many were ended and how many of those were in a transaction.
   */
  async terminateAll(
    db: string,
    o: { onlyMidTransaction?: boolean } = {},
  ): Promise<{ terminated: number; inTransaction: number }> {
    // One statement: the look and the termination see the same backends.
    const { rows } = await this.adminClient().query<{ terminated: number; in_transaction: number }>(
      `
      WITH victims AS (
        SELECT pid, xact_start FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'
      )
      SELECT count(*)::int AS terminated, count(*) FILTER (WHERE xact_start IS NOT NULL)::int AS in_transaction
        FROM victims
       WHERE (NOT $2 OR EXISTS (SELECT 1 FROM victims WHERE xact_start IS NOT NULL)) AND pg_terminate_backend(pid)`,
      [db, o.onlyMidTransaction === true],
    );
    return { terminated: rows[0]!.terminated, inTransaction: rows[0]!.in_transaction };
  }

  /**
   * Runs `sql` inside a transaction left open on a connection of its own (e.g. SELECT … FOR UPDATE:
   * the rows stay locked); `release` rolls it back and closes the connection.
   */
  async holdInTransaction(
    db: string,
    sql: string,
    params: unknown[] = [],
  ): Promise<{ rows: Record<string, unknown>[]; release(): Promise<void> }> {
    const client = await this.connect(db);
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<Record<string, unknown>>(sql, params);
      return {
        rows,
        async release() {
          await client.query('ROLLBACK').catch(() => undefined);
          await client.end().catch(() => undefined);
        },
      };
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
  }

  /**
   * The server full (max_connections reached) for everyone: opens connections (to the postgres database)
   * until it refuses one, and ends the connections already open to `db`, whose pools would otherwise go
   * on using them; filled again until none of theirs got back in between (up to 60 rounds: on a loaded machine
   * a pool reconnecting at the wrong moment wins a few of them). `release` closes them all.
   */
  async connectionsUntilRefused(db: string): Promise<{ held: number; release(): Promise<void> }> {
    const held: pg.Client[] = [];
    const release = async () => {
      await Promise.all(held.splice(0).map((c) => c.end().catch(() => undefined)));
    };
    try {
      for (let round = 0; ; round++) {
        while ((await this.heldIfAccepted(held)) === 'held');
        const { terminated } = await this.terminateAll(db);
        if (terminated === 0) {
          // An exiting backend leaves pg_stat_activity before it frees its slot, and one starting up holds a
          // slot before it shows its database: a slot may still come free, and the services' pools take it
          // (a CI run saw the gateway ready and serving in the middle of the fault). Look again a moment later.
          await new Promise((r) => setTimeout(r, 250));
          if ((await this.terminateAll(db)).terminated === 0 && (await this.heldIfAccepted(held)) === 'refused')
            return { held: held.length, release };
        }
        if (round === 60) throw new Error(`the clients of ${db} kept taking connections back (60 rounds)`);
      }
    } catch (err) {
      await release();
      throw err;
    }
  }

  /** One more connection for connectionsUntilRefused, kept in `held` when the server takes it. */
  private async heldIfAccepted(held: pg.Client[]): Promise<'held' | 'refused'> {
    const client = new pg.Client({ connectionString: this.url('postgres') });
    client.on('error', () => undefined);
    const refused = await client.connect().then(
      () => false,
      (err: { code?: string }) => {
        if (err.code === TOO_MANY_CONNECTIONS) return true;
        throw err;
      },
    );
    if (refused) return 'refused';
    held.push(client);
    return 'held';
  }

  /** Stopped (fast shutdown, or kill -9 if it does not stop) and its directory deleted. */
  async stop(): Promise<void> {
    await this.admin?.end().catch(() => undefined);
    this.admin = null;
    const server = this.server;
    if (server && this.running) {
      // SIGINT: fast shutdown, which also removes its System V shared memory segment.
      const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
      server.kill('SIGINT');
      const stopped = await Promise.race([
        exited.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 10_000).unref()),
      ]);
      if (!stopped) await this.killImmediate().catch(() => undefined);
    }
    this.cleanUp();
  }

  /** What a server no longer running may leave: its System V segment, its directory. Synchronous: also run on exit. */
  private cleanUp(): void {
    removeSegment(this.dataDir);
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 5 });
    unregisterEngine(this);
  }

  /** The run ends with the server up (a failed start, a run cut short): kill -9 and clean up, synchronously. */
  killSync(): void {
    if (this.running) this.server!.kill('SIGKILL');
    // Backends still ending keep their open files, deleted all the same, and the segment until they detach.
    this.cleanUp();
  }
}

/** The newest PostgreSQL installed (Debian's /usr/lib/postgresql/<major>/bin), or CHAOS_POSTGRES_BIN. */
export function postgresBinDir(): string {
  if (process.env.CHAOS_POSTGRES_BIN) return process.env.CHAOS_POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'postgres')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest)
    throw new Error(`no PostgreSQL server binaries under ${root} (set CHAOS_POSTGRES_BIN to their directory)`);
  return path.join(root, newest, 'bin');
}

/** The System V interlock segment of a server of this data directory: its key is on line 7 of postmaster.pid. */
function segmentKey(dataDir: string): number | null {
  try {
    const key = readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[6]?.trim().split(/\s+/)[0];
    return key && /^\d+$/.test(key) ? Number(key) : null;
  } catch {
    return null;
  }
}

/** How many processes have that segment attached (0 when there is none). */
function segmentAttachments(dataDir: string): number {
  const key = segmentKey(dataDir);
  if (key === null) return 0;
  // key shmid perms size cpid lpid nattch …, the key in decimal.
  const row = readFileSync('/proc/sysvipc/shm', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .find((cols) => Number(cols[0]) === key);
  return row ? Number(row[6]) : 0;
}

/**
 * A server killed -9 leaves its segment in the kernel: a restart on the same data directory removes it,
 * a deleted directory never restarts. Removed by key, it goes once the last backend still ending detaches.
 */
function removeSegment(dataDir: string): void {
  const key = segmentKey(dataDir);
  if (key === null) return;
  try {
    execFileSync('ipcrm', ['-M', String(key)], { stdio: 'ignore' });
  } catch {
    // Already gone (removed at a clean shutdown, or by a restart).
  }
}
