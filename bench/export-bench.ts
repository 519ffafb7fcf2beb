/**
 * GET /api/v1/transactions/export at volume (decisions 8: "memory stays flat for millions of rows").
 * Inserts transactions with SQL (generate_series) into the throw-away database, downloads them as CSV
 * and as JSON over HTTP while counting bytes and rows (nothing is kept), and samples the RSS of the
 * gateway process every 100 ms: a peak that does not grow with the row count
 * shows the export streams. Sizes: 100 000 rows, then BENCH_EXPORT_ROWS (default 1 000 000; 0 skips).
 */
import { request } from 'node:http';
import pg from 'pg';
import { signPayload } from '@mm/domain';
import { insertRows, nextMonth } from './support/insert-transactions.js';
import { fmt, type Row } from './support/report.js';

export interface ExportBenchOptions {
  /** Where GET /api/v1/transactions/export is served (the gateway started by run.ts). */
  baseUrl: string;
  databaseUrl: string;
  merchantId: string;
  apiKey: string;
  apiSecret: string;
  rows: number;
  /** Resident memory of the process that serves the export (the gateway's, in its own process). */
  rss(): number;
  /** Told of a download that did not answer 200 with every row. */
  onProblem(problem: string): void;
}

const SMALL = 100_000;
const MiB = 1024 * 1024;

function lastDay(month: string): string {
  return new Date(new Date(nextMonth(month)).getTime() - 86_400_000).toISOString().slice(0, 10);
}

interface Download {
  status: number;
  bytes: number;
  rows: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
}

/** Downloads one export, counting bytes and rows on the fly, RSS sampled every 100 ms. */
function download(o: ExportBenchOptions, query: string, format: 'csv' | 'json'): Promise<Download> {
  const ts = String(Math.floor(Date.now() / 1000));
  const rssBefore = o.rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, o.rss());
  }, 100);
  const started = performance.now();
  return new Promise<Download>((resolve, reject) => {
    const req = request(
      `${o.baseUrl}/api/v1/transactions/export?${query}&format=${format}`,
      {
        headers: {
          'X-Service-Key': o.apiKey,
          'X-Service-Timestamp': ts,
          'X-Service-Signature': signPayload(o.apiSecret, ts, ''),
        },
      },
      (res) => {
        let bytes = 0;
        let newlines = 0;
        let tail = '';
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (format === 'csv') {
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines += 1;
          } else {
            // Only the end matters: {"data":[...],"meta":{"count":N,...}}
            tail = (tail + chunk.subarray(-256).toString('latin1')).slice(-256);
          }
        });
        res.on('end', () => {
          clearInterval(sampler);
          const seconds = (performance.now() - started) / 1000;
          const rows = format === 'csv' ? newlines - 1 : Number(/"meta":\{"count":(\d+)/.exec(tail)?.[1] ?? -1);
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            rows,
            seconds,
            rssBefore,
            rssPeak: Math.max(rssPeak, o.rss()),
            rssAfter: o.rss(),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      clearInterval(sampler);
      reject(err);
    });
    req.end();
  });
}

export async function exportBench(options: ExportBenchOptions): Promise<Row[]> {
  if (options.rows <= 0) return [];
  const sizes = options.rows > SMALL ? [SMALL, options.rows] : [options.rows];
  const sql = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
  const table: Row[] = [];
  const o = options;
  try {
    for (const [i, size] of sizes.entries()) {
      const month = `2025-${String(i + 1).padStart(2, '0')}`;
      const insertS = await insertRows(sql, o.merchantId, size, month);
      table.push({
        what: `export: insert ${fmt(size)} rows (SQL)`,
        rate: `${fmt(size / insertS)} rows/s`,
        latency: `${insertS.toFixed(1)} s`,
        ratio: '',
        target: '',
        notes: 'generate_series, then VACUUM ANALYZE',
      });
      const query = `date_from=${month}-01&date_to=${lastDay(month)}`;
      for (const format of ['csv', 'json'] as const) {
        const d = await download(o, query, format);
        const ok = d.status === 200 && d.rows === size ? 'all rows' : `status ${d.status}, ${d.rows} rows!`;
        if (ok !== 'all rows') o.onProblem(`export ${format} of ${size} rows: ${ok}`);
        table.push({
          what: `export ${format.toUpperCase()}, ${fmt(size)} rows over HTTP`,
          rate: `${fmt(d.rows / d.seconds)} rows/s`,
          latency: `${d.seconds.toFixed(1)} s, ${fmt(d.bytes / MiB)} MiB`,
          ratio: '',
          target: 'memory flat',
          notes: `${ok}; gateway RSS ${fmt(d.rssBefore / MiB)} MiB before, peak ${fmt(d.rssPeak / MiB)} (+${fmt((d.rssPeak - d.rssBefore) / MiB)}), ${fmt(d.rssAfter / MiB)} after`,
        });
      }
    }
  } finally {
    await sql.end();
  }
  return table;
}
