/**
 * Growth per cash-in (issue 20, point 7): N cash-ins through the whole system, then, per table, the
 * rows and bytes each one left (pg_total_relation_size: heap, indexes, TOAST; and the live rows' own
 * bytes, pg_column_size), and what Redis holds for them (INFO used_memory, MEMORY USAGE per key shape,
 * and which keys expire); then the same once the retention job's deletion has run with its clock past
 * every retention (pruneOperationalRows with the default policy), i.e. what a cash-in costs for good.
 */
import { Joi, parseEnv, retention, retentionPolicy } from '@mm/config';
import { pruneOperationalRows, TABLE_RETENTION } from '@mm/db/outbox';
import { waitFor } from '@mm/testing';
import type { ChaosSystem } from '@mm/chaos/system';
import { settle } from './support/settle.js';

const DAY_MS = 24 * 3600 * 1000;
const TABLES = Object.keys(TABLE_RETENTION) as (keyof typeof TABLE_RETENTION)[];

interface TableSize {
  rows: number;
  totalBytes: number;
  liveBytes: number;
}
type Sizes = Record<string, TableSize>;

async function tableSizes(sys: ChaosSystem): Promise<Sizes> {
  const out: Sizes = {};
  for (const t of TABLES) {
    // Table names from our own constant, never input.
    const [r] = await sys.db.$queryRawUnsafe<{ rows: bigint; total: bigint; live: bigint | null }[]>(
      `SELECT count(*) AS rows, pg_total_relation_size('${t}') AS total, sum(pg_column_size(t.*)) AS live FROM ${t} t`,
    );
    out[t] = { rows: Number(r!.rows), totalBytes: Number(r!.total), liveBytes: Number(r!.live ?? 0) };
  }
  return out;
}

export interface GrowthReport {
  cashins: number;
  /** Markdown, for docs/reliability.md. */
  markdown: string;
  problems: string[];
}

/** Runs `cashins` cash-ins, 10 at a time, on a started system (its own database and Redis server). */
export async function measureGrowth(sys: ChaosSystem, cashins: number): Promise<GrowthReport> {
  const problems: string[] = [];
  const policy = retentionPolicy(parseEnv(Joi.object(retention), {}));
  const before = await tableSizes(sys);
  const redisBefore = await sys.redis.usedMemory();

  let next = 0;
  const refused: number[] = [];
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < cashins) {
        const i = ++next;
        const r = await sys.api('POST', '/api/v1/payments/cashin', {
          merchant_order_id: `growth-${i}`,
          amount: 1000,
          customer_msisdn: '+2250707000001',
        });
        if (r.status !== 202) refused.push(r.status);
      }
    }),
  );
  if (refused.length > 0)
    problems.push(`growth: ${refused.length} cash-ins refused (${[...new Set(refused)].join(', ')})`);
  const settled = await settle(sys, 'growth');
  if (settled.lost > 0 || !settled.ledgerOk)
    problems.push(`growth: ${settled.lost} lost, ledger ${settled.ledgerOk ? 'OK' : 'WRONG'}`);
  // The expiry checks are due CASHIN_CONFIRMATION_TIMEOUT_S after PENDING: every job done, nothing in flight.
  await waitFor(async () => (await sys.db.outbox.count({ where: { completedAt: null } })) === 0, {
    timeoutMs: 120_000,
    what: 'every outbox row completed',
  });

  const after = await tableSizes(sys);
  const redisAfter = await sys.redis.usedMemory();
  const keys = await sys.redis.keyspace();
  const deleted = await pruneOperationalRows(
    sys.db,
    policy,
    new Date(Date.now() + (Math.max(policy.outboxDays, policy.webhookAttemptsDays) + 1) * DAY_MS),
  );
  const pruned = await tableSizes(sys);
  const redisPruned = await sys.redis.usedMemory();

  // Per cash-in the system took (a refused one, if any, left nothing behind).
  const accepted = cashins - refused.length;
  const per = (n: number) => (n / accepted).toFixed(2);
  const bytes = (n: number) => Math.round(n / accepted).toLocaleString('en-US');
  const lines = [
    `${accepted} cash-ins accepted of ${cashins} sent, statuses ${JSON.stringify(settled.statuses)}, every SUCCESS notified; ` +
      `default policy: outbox ${policy.outboxDays} days, webhook attempts ${policy.webhookAttemptsDays} days. Per cash-in accepted:`,
    '',
    '| table | policy | rows | table bytes (heap + indexes + TOAST) | live row bytes | rows after retention | live row bytes after retention |',
    '|---|---|---|---|---|---|---|',
    ...TABLES.map((t) => {
      const [b, a, p] = [before[t]!, after[t]!, pruned[t]!];
      return `| \`${t}\` | ${TABLE_RETENTION[t] === 'kept' ? 'kept for ever' : 'pruned'} | ${per(a.rows - b.rows)} | ${bytes(a.totalBytes - b.totalBytes)} | ${bytes(a.liveBytes - b.liveBytes)} | ${per(p.rows - b.rows)} | ${bytes(p.liveBytes - b.liveBytes)} |`;
    }),
    `| **all** | | ${per(sum(after, 'rows') - sum(before, 'rows'))} | ${bytes(sum(after, 'totalBytes') - sum(before, 'totalBytes'))} | ${bytes(sum(after, 'liveBytes') - sum(before, 'liveBytes'))} | ${per(sum(pruned, 'rows') - sum(before, 'rows'))} | ${bytes(sum(pruned, 'liveBytes') - sum(before, 'liveBytes'))} |`,
    '',
    `Rows deleted by the retention run: ${JSON.stringify(deleted)}. Redis (\`used_memory\`): ${bytes(redisAfter - redisBefore)} bytes per cash-in once settled, ` +
      `${bytes(redisPruned - redisBefore)} after the retention run (which does not touch Redis). Its keys once settled, by shape:`,
    '',
    '| key shape | keys | bytes (MEMORY USAGE) | keys with a TTL |',
    '|---|---|---|---|',
    ...keys.map((k) => `| \`${k.pattern}\` | ${k.keys} | ${k.bytes.toLocaleString('en-US')} | ${k.expiring} |`),
  ];
  return { cashins: accepted, markdown: lines.join('\n'), problems };
}

function sum(s: Sizes, field: keyof TableSize): number {
  return Object.values(s).reduce((total, t) => total + t[field], 0);
}
