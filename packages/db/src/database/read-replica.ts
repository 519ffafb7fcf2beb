import pg from 'pg';
import { isDatabaseUnavailable } from './database-unavailable.js';

export interface ReadReplicaOptions {
  /** DATABASE_REPLICA_URL: a streaming replica (a hot standby) of the primary. */
  url: string;
  /** DATABASE_URL: the primary, where each probe bumps the heartbeat it then looks for on the replica. */
  primaryUrl: string;
  /** REPLICA_MAX_LAG_S: behind by more than this, it is not read (its answers would be too old). */
  maxLagS: number;
  /** How often its state is probed (one short query on a connection of its own). */
  probeIntervalMs?: number;
  connectTimeoutMs?: number;
  /**
   * Hears the replica going down (a probe failing after one that answered, or the first), the heartbeat's
   * write on the primary failing likewise, and each read that failed on the replica and went to the primary.
   */
  onError?(err: unknown, what: 'probe' | 'heartbeat' | 'read'): void;
  /** Milliseconds of a clock that only moves forward (tests pass their own). */
  now?: () => number;
}

export interface ReplicaState {
  /** It answered the last probe. */
  up: boolean;
  /** It is a standby (false: promoted, or the URL names a primary; either way not read). */
  standby: boolean;
  /**
   * How old, in seconds, the oldest commit on the primary is that the replica has not replayed, as far as
   * the heartbeats show (0: it has replayed every heartbeat written); null when no heartbeat could be written.
   */
  lagSeconds: number | null;
}

const BUMP = 'UPDATE replica_heartbeat SET seq = seq + 1, beat_at = now() WHERE id = 1 RETURNING seq::text AS seq';
const PROBE = 'SELECT pg_is_in_recovery() AS standby, (SELECT seq::text FROM replica_heartbeat WHERE id = 1) AS seq';
/** Heartbeats kept waiting for the replica to show them: past it, the newest replaces the last kept. */
const MAX_WAITING_BEATS = 3600;

/** One bump of the heartbeat: its number, and when it was sent (the commit came after). */
interface Beat {
  seq: bigint;
  sentAt: number;
}

/**
 * A read replica for the reads that may be a few seconds old and are large: merchants' exports and
 * back-office searches. Never for a read a decision about money is taken on (the API's status reads,
 * anything in a transaction, the workers): those stay on the primary. Read only while it answers, is a
 * standby and is behind by at most maxLagS; otherwise, and when a read on it fails as unavailable, the
 * primary answers: a replica down costs the primary the load, never an answer.
 *
 * The lag is measured, not inferred from the replica's own view: each probe bumps a heartbeat row on the
 * primary, then reads which bump the replica has replayed. The replica's own positions cannot tell a
 * standby that stopped receiving WAL (its link to the primary cut, its primary_conninfo emptied) from one
 * that is current: it has replayed all it received, and it received nothing since. Counted from our own
 * clock and our own bumps, the lag needs no clock shared with the database servers; it is an upper bound
 * on the age of the oldest commit the replica is missing, within one probe interval of commits made since
 * the last bump (the exports and searches it serves are allowed to be REPLICA_MAX_LAG_S old anyway).
 */
export class ReadReplica {
  private current: ReplicaState = { up: false, standby: false, lagSeconds: null };
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private probed = false;
  private readonly probes: pg.Pool;
  private readonly beats: pg.Pool;
  /** Our bumps the replica has not shown yet, oldest first. */
  private waiting: Beat[] = [];
  /** When the last bump that the primary took was sent; null before the first. */
  private lastBeatAt: number | null = null;
  private beating = true;
  private readonly now: () => number;
  /** Reads sent to each side since start: the metric of where exports and searches went. */
  readonly reads = { replica: 0, primary: 0 };

  private constructor(private readonly o: ReadReplicaOptions) {
    this.now = o.now ?? (() => performance.now());
    this.probes = probePool(o.url, o.connectTimeoutMs);
    this.beats = probePool(o.primaryUrl, o.connectTimeoutMs);
  }

  /**
   * Probed once before it resolves (a replica down at start is simply not read), then probeIntervalMs
   * after each probe ends: a probe waiting out its connect timeout never has another queued behind it.
   */
  static async start(o: ReadReplicaOptions): Promise<ReadReplica> {
    const replica = new ReadReplica(o);
    const next = async (): Promise<void> => {
      await replica.probe();
      if (!replica.closed) replica.timer = setTimeout(() => void next(), o.probeIntervalMs ?? 1000).unref();
    };
    await next();
    return replica;
  }

  /** The replica of a service's settings (DATABASE_REPLICA_URL, REPLICA_MAX_LAG_S), started; null without one. */
  static async fromSettings(
    env: {
      DATABASE_URL: string;
      DATABASE_REPLICA_URL?: string;
      REPLICA_MAX_LAG_S: number;
      DB_CONNECT_TIMEOUT_MS: number;
    },
    onError: ReadReplicaOptions['onError'],
  ): Promise<ReadReplica | null> {
    if (!env.DATABASE_REPLICA_URL) return null;
    return ReadReplica.start({
      url: env.DATABASE_REPLICA_URL,
      primaryUrl: env.DATABASE_URL,
      maxLagS: env.REPLICA_MAX_LAG_S,
      connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
      onError,
    });
  }

  get state(): ReplicaState {
    return this.current;
  }

  /** Bumps the heartbeat on the primary, then reads the replica: which bumps it shows, whether it is a standby. */
  async probe(): Promise<ReplicaState> {
    const beat = await this.beat();
    try {
      const { rows } = await this.probes.query<{ standby: boolean; seq: string | null }>(PROBE);
      const shown = rows[0]!.seq === null ? -1n : BigInt(rows[0]!.seq);
      this.waiting = this.waiting.filter((b) => b.seq > shown);
      this.current = { up: true, standby: rows[0]!.standby, lagSeconds: this.lagSeconds(beat) };
    } catch (err) {
      // Heard when it goes down (or is down at start), not at every probe while it stays down.
      if (this.current.up || !this.probed) this.o.onError?.(err, 'probe');
      this.current = { up: false, standby: false, lagSeconds: null };
    }
    this.probed = true;
    return this.current;
  }

  private async beat(): Promise<boolean> {
    const sentAt = this.now();
    try {
      const { rows } = await this.beats.query<{ seq: string }>(BUMP);
      if (rows.length === 0)
        throw new Error('replica_heartbeat has no row: the migrations did not run on this database');
      if (this.waiting.length >= MAX_WAITING_BEATS) this.waiting.pop();
      this.waiting.push({ seq: BigInt(rows[0]!.seq), sentAt });
      this.lastBeatAt = sentAt;
      this.beating = true;
      return true;
    } catch (err) {
      if (this.beating) this.o.onError?.(err, 'heartbeat');
      this.beating = false;
      return false;
    }
  }

  /**
   * From our oldest bump the replica does not show. When this probe's bump failed (the primary unreachable
   * from here), what the primary committed since our last bump is unknown: the lag counts from that bump.
   */
  private lagSeconds(beatTaken: boolean): number | null {
    if (this.lastBeatAt === null) return null;
    const now = this.now();
    const oldestMissing = this.waiting[0]?.sentAt ?? now;
    const knownUpTo = beatTaken ? now : this.lastBeatAt;
    return Math.max(0, now - Math.min(oldestMissing, knownUpTo)) / 1000;
  }

  /** Whether reads go to it now. */
  usable(): boolean {
    const { up, standby, lagSeconds } = this.current;
    return up && standby && lagSeconds !== null && lagSeconds <= this.o.maxLagS;
  }

  /**
   * `onReplica` when the replica is usable, else `onPrimary`; a replica read that fails as unavailable
   * marks it down (until the next probe says otherwise) and is run again on the primary.
   */
  async read<T>(onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    if (!this.usable()) {
      this.reads.primary++;
      return onPrimary();
    }
    try {
      const result = await onReplica();
      this.reads.replica++;
      return result;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      this.current = { ...this.current, up: false };
      this.o.onError?.(err, 'read');
      this.reads.primary++;
      return onPrimary();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([this.probes.end().catch(() => undefined), this.beats.end().catch(() => undefined)]);
  }
}

/** One connection of its own, whose failures are the probe's to report. */
function probePool(url: string, connectTimeoutMs = 2000): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: connectTimeoutMs,
    application_name: 'mm-replica-probe',
  });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}
