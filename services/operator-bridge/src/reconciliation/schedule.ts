import type { Db } from '@mm/db';
import { listOperatorAccounts } from '@mm/db/operator-accounts';
import type { QueueProducer, ReconciliationRunJob } from '@mm/queues';

/** Every reconciliation scheduler's id starts with it: `reconcile:CI:SIMULATOR`. */
export const RECONCILIATION_SCHEDULER_PREFIX = 'reconcile:';

export const reconciliationSchedulerId = (a: { countryCode: string; operator: string }) =>
  `${RECONCILIATION_SCHEDULER_PREFIX}${a.countryCode}:${a.operator}`;

export interface ScheduleSync {
  /** Schedulers written (new, or their pattern changed; all of them with `force`). */
  upserted: string[];
  /** Schedulers removed: their account disabled or gone, or the schedule turned off. */
  removed: string[];
}

/**
 * One daily job scheduler per enabled operator account (reconciliation-runs, `date` null: the day before),
 * at `cron` in UTC; the schedulers of accounts no longer enabled removed; `cron` empty removes them all.
 * Every replica of the bridge runs it (at start, and when the accounts change): upserts leave one scheduler
 * per account. Redis is read before the accounts, so a replica never removes a scheduler that another one
 * wrote from a newer view of the accounts than its own (if it did not see the account enabled, the other
 * one saw it disabled since).
 */
export async function syncReconciliationSchedules(
  db: Db,
  producer: QueueProducer<ReconciliationRunJob>,
  cron: string,
  options: { force?: boolean } = {},
): Promise<ScheduleSync> {
  const existing = new Map((await producer.schedulers(RECONCILIATION_SCHEDULER_PREFIX)).map((s) => [s.id, s]));
  const accounts = cron === '' ? [] : (await listOperatorAccounts(db)).filter((a) => a.enabled);
  const wanted = new Set(accounts.map(reconciliationSchedulerId));
  const result: ScheduleSync = { upserted: [], removed: [] };
  for (const account of accounts) {
    const id = reconciliationSchedulerId(account);
    const current = existing.get(id);
    if (!options.force && current && current.pattern === cron && current.tz === 'UTC') continue;
    await producer.scheduleCron(id, cron, {
      country_code: account.countryCode,
      operator: account.operator,
      date: null,
      trigger: 'schedule',
    });
    result.upserted.push(id);
  }
  for (const id of existing.keys()) {
    if (wanted.has(id)) continue;
    if (await producer.unschedule(id)) result.removed.push(id);
  }
  return result;
}

export interface ScheduleFollower {
  /** Syncs now (tests); resolves when done. */
  syncNow(): Promise<ScheduleSync>;
  stop(): Promise<void>;
}

/**
 * Syncs at once (every scheduler written: a new version's job options apply), then again whenever the
 * operator directory hears of a change of the reference data (`generation` moves), checked every
 * `checkMs`, and every `ttlMs` while it hears none (the LISTEN connection lost). A sync that fails is
 * reported and tried again at the next check.
 */
export async function followReconciliationSchedules(o: {
  db: Db;
  producer: QueueProducer<ReconciliationRunJob>;
  cron: string;
  directory: { readonly generation: number; readonly listening: boolean };
  checkMs: number;
  ttlMs: number;
  onSync?(sync: ScheduleSync): void;
  onError(err: unknown): void;
  now?: () => number;
}): Promise<ScheduleFollower> {
  const now = o.now ?? Date.now;
  let seen = o.directory.generation;
  let lastSync = now();
  let running: Promise<ScheduleSync> | null = null;
  const sync = (force = false) => {
    running ??= (async () => {
      const generation = o.directory.generation;
      const result = await syncReconciliationSchedules(o.db, o.producer, o.cron, { force });
      seen = generation;
      lastSync = now();
      if (result.upserted.length > 0 || result.removed.length > 0) o.onSync?.(result);
      return result;
    })().finally(() => {
      running = null;
    });
    return running;
  };
  await sync(true);
  const timer = setInterval(() => {
    const stale = o.directory.generation !== seen || (!o.directory.listening && now() - lastSync >= o.ttlMs);
    if (stale && !running) sync().catch(o.onError);
  }, o.checkMs);
  timer.unref();
  return {
    syncNow: async () => {
      await running?.catch(() => undefined);
      return sync();
    },
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
