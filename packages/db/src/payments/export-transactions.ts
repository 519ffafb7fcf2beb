import { Readable } from 'node:stream';
import pg from 'pg';
import QueryStream from 'pg-query-stream';
import type { Transaction } from '../generated/prisma/client.js';
import type { ReadReplica } from '../database/index.js';

/**
 * decisions 8: the transaction export reads through a server-side cursor so that memory stays flat
 * whatever the row count. Prisma cannot stream, so this uses node-postgres directly on a pool of its
 * own (an export holds its connection for as long as the download lasts; it must not starve the
 * Prisma pool that serves payments).
 */

export type ExportPool = pg.Pool;

/** Where an export takes its connection: a pool, or the replica-or-primary choice of exportConnections. */
export interface ExportConnections {
  connect(): Promise<pg.PoolClient>;
}

/**
 * An export's connection from the read replica's pool while the replica is usable (ReadReplica), else
 * (and when the replica gives none: down since its last probe) from the primary's: a download never
 * fails for want of a replica. Without a replica, the primary's pool itself.
 */
export function exportConnections(
  primary: ExportPool,
  replica: { pool: ExportPool; state: Pick<ReadReplica, 'read'> } | null,
): ExportConnections {
  if (!replica) return primary;
  return {
    connect: () =>
      replica.state.read(
        () => replica.pool.connect(),
        () => primary.connect(),
      ),
  };
}

/** The columns of one exported transaction, typed as Prisma types them (bigint amounts, Date times). */
export type ExportedTransaction = Pick<
  Transaction,
  | 'id'
  | 'merchantOrderId'
  | 'type'
  | 'status'
  | 'amount'
  | 'currency'
  | 'countryCode'
  | 'msisdn'
  | 'providerReference'
  | 'providerTxId'
  | 'providerSessionId'
  | 'providerState'
  | 'providerTxnStatus'
  | 'failureCode'
  | 'failureReason'
  | 'refundedAmount'
  | 'completedAt'
  | 'createdAt'
  | 'updatedAt'
  | 'operator'
  | 'paymentLinkId'
>;

export interface TransactionExportFilter {
  merchantId: string;
  /** created_at >= from */
  from: Date;
  /** created_at < until */
  until: Date;
  countryCode?: string;
}

export interface ExportPoolOptions {
  databaseUrl: string;
  /** Concurrent exports per process; each holds one connection for the whole download. */
  max?: number;
  /** Waiting longer than this for a free connection fails the export (before anything is sent). */
  connectionTimeoutMs?: number;
  /** An idle connection that breaks is dropped by the pool; this hears about it (default: ignored). */
  onError?: (err: Error) => void;
}

export function createExportPool({
  databaseUrl,
  max = 4,
  connectionTimeoutMs = 10_000,
  onError,
}: ExportPoolOptions): ExportPool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: connectionTimeoutMs,
    application_name: 'mm-export',
  });
  // Without a listener, a broken idle connection would crash the process.
  pool.on('error', (err) => onError?.(err));
  // A connection held by a download between two reads: its server's FATAL must not end the process (client.ts).
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

const COLUMNS = `id, merchant_order_id AS "merchantOrderId", type, status, amount, currency,
  country_code AS "countryCode", msisdn, provider_reference AS "providerReference", provider_tx_id AS "providerTxId",
  provider_session_id AS "providerSessionId", provider_state AS "providerState", provider_txn_status AS "providerTxnStatus",
  failure_code AS "failureCode", failure_reason AS "failureReason", refunded_amount AS "refundedAmount",
  completed_at AS "completedAt", created_at AS "createdAt", updated_at AS "updatedAt", operator,
  payment_link_id AS "paymentLinkId"`;

/** The query of one export; the (merchant_id, created_at) index serves both the filter and the order. */
export function exportQuery(filter: TransactionExportFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [filter.merchantId, filter.from, filter.until];
  let where = 'merchant_id = $1 AND created_at >= $2 AND created_at < $3';
  if (filter.countryCode !== undefined) {
    values.push(filter.countryCode);
    where += ' AND country_code = $4';
  }
  return { text: `SELECT ${COLUMNS} FROM transactions WHERE ${where} ORDER BY created_at, id`, values };
}

const INT8_OID = 20;
// Rows come out exactly as ExportedTransaction: bigint columns as bigint, like Prisma.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (v: string) => BigInt(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

const EXPORT_TRANSACTION = 'BEGIN READ ONLY; SET LOCAL statement_timeout = 0';

class TransactionExportStream extends Readable {
  private client: pg.PoolClient | null = null;
  private rows: QueryStream | null = null;
  private finished = false;
  private readonly onClientError = (err: Error) => this.destroy(err);

  constructor(
    private readonly pool: ExportConnections,
    private readonly query: { text: string; values: unknown[] },
    private readonly batchSize: number,
  ) {
    super({ objectMode: true, highWaterMark: batchSize });
  }

  override _construct(callback: (err?: Error | null) => void): void {
    this.pool.connect().then(
      (client) => {
        if (this.destroyed) {
          client.release();
          return callback();
        }
        this.client = client;
        // A connection that breaks while checked out reports here, not to the pool.
        client.on('error', this.onClientError);
        // A transaction of its own, read-only and with no statement timeout: the rows are read from one
        // portal for as long as the download lasts, which a server's statement_timeout counts from the
        // first read to the last. Direct, the export pool sets none; through a transaction-mode pooler its
        // connections carry the gateway's (2 s), which cut every export longer than that; SET LOCAL ends
        // with the transaction and never reaches the next client of that server connection.
        client.query(EXPORT_TRANSACTION).catch((err: Error) => this.destroy(err));
        const rows = client.query(
          new QueryStream(this.query.text, this.query.values, { batchSize: this.batchSize, types }),
        );
        this.rows = rows;
        rows.on('data', (row: ExportedTransaction) => {
          if (!this.push(row)) rows.pause();
        });
        rows.on('end', () => {
          client.query('COMMIT').then(
            () => {
              this.finished = true;
              this.push(null);
            },
            (err: Error) => this.destroy(err),
          );
        });
        rows.on('error', (err: Error) => this.destroy(err));
        callback();
      },
      (err: Error) => callback(err),
    );
  }

  override _read(): void {
    this.rows?.resume();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeListener('error', this.onClientError);
      // Read to the end: the connection goes back to the pool. Failed or abandoned half-way (the
      // client went away): the connection is closed, which also stops the query on the server.
      if (this.finished && !err) client.release();
      else client.release(err ?? true);
    }
    callback(err);
  }
}

/**
 * The merchant's transactions created in [from, until), optionally of one country, ordered by
 * (created_at, id), as an object-mode stream of ExportedTransaction read `batchSize` rows at a time.
 * The connection is released when the stream ends, fails or is destroyed.
 */
export function streamTransactionExport(
  pool: ExportConnections,
  filter: TransactionExportFilter,
  { batchSize = 500 }: { batchSize?: number } = {},
): Readable {
  return new TransactionExportStream(pool, exportQuery(filter), batchSize);
}
