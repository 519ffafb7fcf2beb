/**
 * Operator calls per account, from the processes that call the operators (the bridge, the expiry and
 * refund workers): each one's /metrics is scraped on a page load (a short timeout each), its
 * mm_operator_request_duration_seconds read, and the processes summed.
 *
 * Two figures per account:
 * - cumulative: everything counted since each process started (Prometheus counters);
 * - recent: what was counted between an earlier scrape kept in memory (the oldest one of the last
 *   RECENT_WINDOW_MS) and this one, per process (a process restarted in between counts from zero).
 *   Null until an earlier scrape exists (the first page load after a start, or after a quiet spell).
 *
 * A process that cannot be scraped is reported as such (sources), and its calls are missing from the
 * figures: they are never counted as zero. With Prometheus deployed, the same figures come from
 * mm_operator_request_duration_seconds by account (docs/observability.md).
 */
import { parsePrometheusText } from '@mm/observability';

export const CALLS_METRIC = 'mm_operator_request_duration_seconds';
/** How far back the recent figures reach, at most. */
export const RECENT_WINDOW_MS = 5 * 60_000;
/** Scrapes closer together than this are not all kept (the memory holds at most window / spacing). */
const KEEP_SPACING_MS = 15_000;

const OUTCOMES = ['ok', 'refused', 'unavailable', 'error'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** One account's calls as one process counted them. */
interface Counts {
  outcomes: Record<Outcome, number>;
  /** Cumulative bucket counts by upper bound (le, +Inf included), every operation and outcome together. */
  buckets: Map<number, number>;
}

export interface AccountCalls {
  calls: number;
  ok: number;
  refused: number;
  unavailable: number;
  error: number;
  /** ok / calls; null without a call. */
  successRate: number | null;
  /** Seconds, interpolated within the histogram's buckets (as PromQL's histogram_quantile); null without a call. */
  p50: number | null;
  p95: number | null;
}

export interface MetricsSource {
  url: string;
  ok: boolean;
  /** Why it could not be read (unreachable, timed out, HTTP status). */
  error?: string;
}

export interface OperatorCallHealth {
  /** Whether any /metrics URL is configured (OPERATOR_METRICS_URLS). */
  configured: boolean;
  sources: MetricsSource[];
  /** Since each scraped process started, by account ("CI:MTN"). */
  cumulative: Map<string, AccountCalls>;
  /** Between an earlier scrape and this one; null when there is none to compare with. */
  recent: { sinceMs: number; partial: boolean; byAccount: Map<string, AccountCalls> } | null;
}

type Scrape = { at: number; byUrl: Map<string, Map<string, Counts>> };

const emptyCounts = (): Counts => ({ outcomes: { ok: 0, refused: 0, unavailable: 0, error: 0 }, buckets: new Map() });

/** One process's /metrics text, its calls by account. */
export function countsByAccount(text: string): Map<string, Counts> {
  const byAccount = new Map<string, Counts>();
  const of = (account: string) => {
    let c = byAccount.get(account);
    if (!c) byAccount.set(account, (c = emptyCounts()));
    return c;
  };
  for (const s of parsePrometheusText(text, (n) => n === `${CALLS_METRIC}_count` || n === `${CALLS_METRIC}_bucket`)) {
    const account = s.labels.account;
    if (!account) continue;
    const c = of(account);
    if (s.name.endsWith('_count')) {
      const outcome = s.labels.outcome as Outcome;
      if (OUTCOMES.includes(outcome)) c.outcomes[outcome] += s.value;
    } else {
      const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
      if (!Number.isNaN(le)) c.buckets.set(le, (c.buckets.get(le) ?? 0) + s.value);
    }
  }
  return byAccount;
}

function add(into: Counts, c: Counts, sign = 1): void {
  for (const o of OUTCOMES) into.outcomes[o] += sign * c.outcomes[o];
  for (const [le, n] of c.buckets) into.buckets.set(le, (into.buckets.get(le) ?? 0) + sign * n);
}

/** The q-quantile of cumulative buckets, interpolated linearly within its bucket (PromQL's histogram_quantile). */
export function quantileOfBuckets(buckets: Map<number, number>, q: number): number | null {
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total <= 0 || sorted.at(-1)![0] !== Infinity) return null;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [le, count] of sorted) {
    if (count >= rank) {
      // In the +Inf bucket: the highest finite bound is all that is known.
      if (le === Infinity) return lowerBound;
      return count === lowerCount ? le : lowerBound + ((le - lowerBound) * (rank - lowerCount)) / (count - lowerCount);
    }
    lowerBound = le;
    lowerCount = count;
  }
  return null;
}

function summary(c: Counts): AccountCalls {
  const calls = OUTCOMES.reduce((n, o) => n + c.outcomes[o], 0);
  return {
    calls,
    ...c.outcomes,
    successRate: calls > 0 ? c.outcomes.ok / calls : null,
    p50: calls > 0 ? quantileOfBuckets(c.buckets, 0.5) : null,
    p95: calls > 0 ? quantileOfBuckets(c.buckets, 0.95) : null,
  };
}

/** What one process counted between two of its scrapes; a counter that went down means it restarted: all it has now is new. */
function delta(now: Counts, before: Counts | undefined): Counts {
  if (!before) return now;
  const d = emptyCounts();
  add(d, now);
  add(d, before, -1);
  const restarted = OUTCOMES.some((o) => d.outcomes[o] < 0) || [...d.buckets.values()].some((n) => n < 0);
  return restarted ? now : d;
}

export interface OperatorCallHealthOptions {
  /** The /metrics URLs of the processes that call the operators (OPERATOR_METRICS_URLS). */
  urls: readonly string[];
  timeoutMs: number;
  now?: () => number;
  fetch?: typeof fetch;
}

/** Reads the operator calls of every configured process, keeping recent scrapes for the recent figures. */
export class OperatorCallHealthReader {
  private kept: Scrape[] = [];
  private readonly now: () => number;
  private readonly fetch: typeof fetch;

  constructor(private readonly o: OperatorCallHealthOptions) {
    this.now = o.now ?? Date.now;
    this.fetch = o.fetch ?? fetch;
  }

  async read(): Promise<OperatorCallHealth> {
    const at = this.now();
    const scraped = await Promise.all(
      this.o.urls.map(async (url) => {
        try {
          const res = await this.fetch(url, { signal: AbortSignal.timeout(this.o.timeoutMs) });
          if (!res.ok) return { url, error: `HTTP ${res.status}` };
          return { url, counts: countsByAccount(await res.text()) };
        } catch (err) {
          // A DOMException (the abort) is not an Error in every realm: read its name.
          const name = (err as { name?: unknown } | null)?.name;
          return { url, error: name === 'TimeoutError' ? `no answer in ${this.o.timeoutMs} ms` : 'unreachable' };
        }
      }),
    );
    const sources: MetricsSource[] = scraped.map((s) =>
      s.counts ? { url: s.url, ok: true } : { url: s.url, ok: false, error: s.error },
    );
    const current: Scrape = {
      at,
      byUrl: new Map(scraped.flatMap((s) => (s.counts ? [[s.url, s.counts] as const] : []))),
    };

    const cumulative = new Map<string, Counts>();
    for (const counts of current.byUrl.values())
      for (const [account, c] of counts) add(cumulative.get(account) ?? setNew(cumulative, account), c);

    this.kept = this.kept.filter((k) => at - k.at <= RECENT_WINDOW_MS && at >= k.at);
    const baseline = this.kept[0];
    let recent: OperatorCallHealth['recent'] = null;
    if (baseline) {
      const byAccount = new Map<string, Counts>();
      let partial = sources.some((s) => !s.ok);
      for (const [url, counts] of current.byUrl) {
        const before = baseline.byUrl.get(url);
        // Not read then: nothing to compare with; its calls are left out, and the figure says so.
        if (!before) {
          partial = true;
          continue;
        }
        for (const [account, c] of counts)
          add(byAccount.get(account) ?? setNew(byAccount, account), delta(c, before.get(account)));
      }
      recent = { sinceMs: at - baseline.at, partial, byAccount: summarise(byAccount) };
    }
    const last = this.kept.at(-1);
    if (current.byUrl.size > 0 && (!last || at - last.at >= KEEP_SPACING_MS)) this.kept.push(current);
    return { configured: this.o.urls.length > 0, sources, cumulative: summarise(cumulative), recent };
  }
}

function setNew(map: Map<string, Counts>, account: string): Counts {
  const c = emptyCounts();
  map.set(account, c);
  return c;
}

function summarise(map: Map<string, Counts>): Map<string, AccountCalls> {
  return new Map([...map].map(([account, c]) => [account, summary(c)]));
}

/** OPERATOR_METRICS_URLS: comma-separated, blanks ignored. */
export function metricsUrlsOf(setting: string): string[] {
  return setting
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
}
