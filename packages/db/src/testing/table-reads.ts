import type { Db } from '../database/index.js';

/** What PostgreSQL's statistics count of one table: rows read (sequentially or by index), sequential scans, scans per index. */
export interface TableStats {
  rows: number;
  seq: number;
  scans: Record<string, number>;
}

/**
 * The table's counts so far, after flushing `reader`'s: the plan tests run the read they measure on
 * `reader`, a pool of one connection, so that its counts are in; another session's arrive late, on a
 * timer of their own, so every read around the measure goes through `reader` too.
 */
export async function tableStats(reader: Db, db: Db, table: string): Promise<TableStats> {
  await reader.$executeRaw`SELECT pg_stat_force_next_flush()`;
  const [counts] = await db.$queryRaw<{ rows: bigint; seq: bigint }[]>`
    SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS rows, coalesce(seq_scan, 0) AS seq
      FROM pg_stat_user_tables WHERE relname = ${table}`;
  const indexes = await db.$queryRaw<{ name: string; scans: bigint }[]>`
    SELECT indexrelname AS name, idx_scan AS scans FROM pg_stat_user_indexes WHERE relname = ${table}`;
  return {
    rows: Number(counts!.rows),
    seq: Number(counts!.seq),
    scans: Object.fromEntries(indexes.map((i) => [i.name, Number(i.scans)])),
  };
}

/** What was read between two counts: rows, sequential scans, and the indexes scanned. */
export function readsBetween(
  before: TableStats,
  after: TableStats,
): { rows: number; seqScans: number; indexes: string[] } {
  return {
    rows: after.rows - before.rows,
    seqScans: after.seq - before.seq,
    indexes: Object.keys(after.scans).filter((k) => after.scans[k]! > (before.scans[k] ?? 0)),
  };
}
