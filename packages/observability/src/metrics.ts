import { Registry, collectDefaultMetrics, Counter, Gauge, Histogram } from 'prom-client';

export { Counter, Gauge, Histogram, Registry };

/** One registry per service process, with Node's default metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** 1 while PostgreSQL's change notifications reach this process (its reference caches are in use), 0 otherwise. */
export function referenceChangesGauge(registry: Registry, feed: { readonly listening: boolean }): void {
  new Gauge({
    name: 'mm_reference_changes_listening',
    help: '1 while PostgreSQL change notifications reach this process (API keys, merchant statuses and subsidiaries served from memory); 0 while they are read from the database every time.',
    registers: [registry],
    collect() {
      this.set(feed.listening ? 1 : 0);
    },
  });
}

/** What a read replica shows of itself (ReadReplica of @mm/db). */
export interface ReplicaView {
  readonly state: { up: boolean; standby: boolean; lagSeconds: number | null };
  usable(): boolean;
  readonly reads: { replica: number; primary: number };
}

/**
 * The read replica of exports and searches (docs/deployment.md): whether it answers as a standby, how far
 * behind it is (NaN while unknown), whether it is read now, and where the reads it could serve went.
 */
export function readReplicaMetrics(registry: Registry, replica: ReplicaView): void {
  new Gauge({
    name: 'mm_db_replica_up',
    help: '1 while the read replica answers its probe as a standby; 0 otherwise (reads go to the primary).',
    registers: [registry],
    collect() {
      this.set(replica.state.up && replica.state.standby ? 1 : 0);
    },
  });
  new Gauge({
    name: 'mm_db_replica_lag_seconds',
    help: 'How far the read replica is behind: the age of the oldest heartbeat written on the primary that it has not replayed (0: none); NaN while it does not answer or no heartbeat could be written.',
    registers: [registry],
    collect() {
      this.set(replica.state.lagSeconds ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'mm_db_replica_in_use',
    help: '1 while exports and searches read the replica (up, a standby, within REPLICA_MAX_LAG_S); 0 while they read the primary.',
    registers: [registry],
    collect() {
      this.set(replica.usable() ? 1 : 0);
    },
  });
  new Counter({
    name: 'mm_db_replica_reads_total',
    help: 'Exports and searches that could read the replica, by where they went (replica or primary).',
    labelNames: ['target'],
    registers: [registry],
    // The replica keeps the counts; each scrape reports them as they are.
    collect() {
      this.reset();
      for (const target of ['replica', 'primary'] as const) this.inc({ target }, replica.reads[target]);
    },
  });
}

/**
 * Statements PostgreSQL refused in a way only a wrong setting explains (configurationErrorsOf of @mm/db:
 * a statement prepared by name meeting a server connection that did not prepare it, DB_POOLING=direct
 * behind a pooler in transaction mode); the log says it at most once a minute, this counts each one.
 */
export function dbConfigurationErrorsCounter(registry: Registry, count: () => number): void {
  new Counter({
    name: 'mm_db_configuration_errors_total',
    help: 'Statements PostgreSQL refused as only a wrong setting explains (a prepared statement unknown on, or already on, its server connection: DB_POOLING=direct behind a pooler in transaction mode); logged at most once a minute.',
    registers: [registry],
    // The client keeps the count; each scrape reports it as it is.
    collect() {
      this.reset();
      this.inc(count());
    },
  });
}
