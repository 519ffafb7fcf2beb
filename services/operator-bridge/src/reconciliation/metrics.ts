import type { Db } from '@mm/db';
import { openCaseTotals, type OpenCaseTotals } from '@mm/db/reconciliation';
import { Gauge, singleMetric, type Registry } from '@mm/observability';

/** How long one reading of the open cases serves the scrapes: Prometheus and the back-office both scrape. */
export const OPEN_CASES_CACHE_MS = 15_000;

/**
 * mm_reconciliation_open_cases{operator, country} and mm_reconciliation_unmatched_amount{operator, country,
 * currency} (the sum of |difference| of the open cases), read from PostgreSQL at scrape time, one query
 * for both, kept `cacheMs`: a scrape every few seconds costs at most one query per `cacheMs`. Every enabled
 * account is reported, at 0 when it has no open case. The database unreachable: the series keep their last
 * values rather than failing the scrape. Every replica reports the same numbers (take `max`).
 */
export function reportOpenCases(
  registry: Registry,
  db: Db,
  options: { cacheMs?: number; now?: () => number } = {},
): void {
  const cacheMs = options.cacheMs ?? OPEN_CASES_CACHE_MS;
  const now = options.now ?? Date.now;
  let cached: { at: number; rows: OpenCaseTotals[] } | null = null;
  let reading: Promise<OpenCaseTotals[] | null> | null = null;
  const read = async (): Promise<OpenCaseTotals[] | null> => {
    if (cached && now() - cached.at < cacheMs) return cached.rows;
    reading ??= openCaseTotals(db)
      .then((rows) => {
        cached = { at: now(), rows };
        return rows;
      })
      .catch(() => null)
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  singleMetric(
    registry,
    'mm_reconciliation_open_cases',
    () =>
      new Gauge({
        name: 'mm_reconciliation_open_cases',
        help: 'Reconciliation cases open now (differences with the operator waiting for a person), by operator and country; read from PostgreSQL at scrape time (at most every 15 s); every bridge replica reports the same numbers.',
        labelNames: ['operator', 'country'],
        registers: [registry],
        async collect() {
          const rows = await read();
          if (!rows) return;
          this.reset();
          const byAccount = new Map<string, { operator: string; country: string; n: number }>();
          for (const r of rows) {
            const key = `${r.country_code}:${r.operator}`;
            const entry = byAccount.get(key) ?? { operator: r.operator, country: r.country_code, n: 0 };
            entry.n += r.open_cases;
            byAccount.set(key, entry);
          }
          for (const a of byAccount.values()) this.set({ operator: a.operator, country: a.country }, a.n);
        },
      }),
  );
  singleMetric(
    registry,
    'mm_reconciliation_unmatched_amount',
    () =>
      new Gauge({
        name: 'mm_reconciliation_unmatched_amount',
        help: "Sum of |difference| of the reconciliation cases open now, in the currency's units, by operator, country and currency; read with mm_reconciliation_open_cases.",
        labelNames: ['operator', 'country', 'currency'],
        registers: [registry],
        async collect() {
          const rows = await read();
          if (!rows) return;
          this.reset();
          for (const r of rows)
            this.set({ operator: r.operator, country: r.country_code, currency: r.currency }, r.unmatched_amount);
        },
      }),
  );
}
