import pg from 'pg';

/** The channel the reference_change trigger notifies (migration 20261124000000). */
export const REFERENCE_CHANGES_CHANNEL = 'reference_changes';

/**
 * What a cache of reference data (API keys, merchant status, subsidiaries) needs to know to be
 * trusted: whether PostgreSQL's change notifications are reaching this process right now, and a
 * generation that moves on every change and on every loss or gain of the LISTEN connection.
 */
export interface ReferenceChangeFeed {
  readonly listening: boolean;
  readonly generation: number;
  close(): Promise<void>;
}

export interface ReferenceChangeOptions {
  databaseUrl: string;
  /** Wait before listening again after the connection was lost. */
  retryMs?: number;
  onError?: (err: Error) => void;
}

class PgReferenceChangeFeed implements ReferenceChangeFeed {
  listening = false;
  generation = 0;
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly o: ReferenceChangeOptions) {}

  /** One attempt; on failure the feed keeps trying in the background, not listening meanwhile. */
  async connect(): Promise<void> {
    this.retry = null;
    const client = new pg.Client({
      connectionString: this.o.databaseUrl,
      application_name: 'mm-reference-changes',
      keepAlive: true,
    });
    this.client = client;
    client.on('notification', () => {
      this.generation++;
    });
    client.on('error', (err) => {
      this.o.onError?.(err);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${REFERENCE_CHANGES_CHANNEL}`);
    } catch (err) {
      this.o.onError?.(err as Error);
      this.lost(client);
      return;
    }
    if (this.client !== client) {
      // Closed (or replaced) while connecting.
      await client.end().catch(() => undefined);
      return;
    }
    // Whatever changed while nobody was listening is unknown: everything read before is suspect.
    this.generation++;
    this.listening = true;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = false;
    this.generation++;
    client.end().catch(() => undefined);
    if (!this.closed) this.retry = setTimeout(() => void this.connect(), this.o.retryMs ?? 1000);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    this.listening = false;
    this.generation++;
    await client?.end().catch(() => undefined);
  }
}

/**
 * LISTENs for reference changes on a connection of its own. Resolves after the first attempt, listening
 * or not: a gateway that starts while the database is unreachable reads without its cache until the
 * connection comes back.
 */
export async function listenForReferenceChanges(o: ReferenceChangeOptions): Promise<ReferenceChangeFeed> {
  const feed = new PgReferenceChangeFeed(o);
  await feed.connect();
  return feed;
}
