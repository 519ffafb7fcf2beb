import { Histogram, LATENCY_BUCKETS, Registry } from '@mm/observability';
import {
  CALLS_METRIC,
  metricsUrlsOf,
  OperatorCallHealthReader,
  quantileOfBuckets,
  RECENT_WINDOW_MS,
} from './operator-health.js';

/** A process's registry with the operator-call histogram as instrumentAdapter registers it. */
function processMetrics() {
  const registry = new Registry();
  const h = new Histogram({
    name: CALLS_METRIC,
    help: 'h',
    labelNames: ['operator', 'account', 'operation', 'outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    calls(account: string, outcome: string, seconds: number, n = 1) {
      for (let i = 0; i < n; i++) h.observe({ operator: 'x', account, operation: 'status', outcome }, seconds);
    },
  };
}

/** fetch answering each URL from its process's registry; `down` URLs refuse the connection. */
function fakeFetch(processes: Record<string, Registry>, down = new Set<string>()): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = String(input);
    if (down.has(url) || !processes[url]) throw new TypeError('fetch failed');
    return new Response(await processes[url].metrics(), { status: 200 });
  }) as typeof fetch;
}

describe('operator call health', () => {
  it('sums the processes per account: calls, success rate, errors split, p50/p95; an unreachable process is reported, never counted as zero', async () => {
    const bridge = processMetrics();
    const expiry = processMetrics();
    bridge.calls('CI:MTN', 'ok', 0.04, 6);
    bridge.calls('CI:MTN', 'unavailable', 10, 1);
    expiry.calls('CI:MTN', 'ok', 0.2, 2);
    expiry.calls('CI:MTN', 'refused', 0.07, 1);
    expiry.calls('SN:WAVE', 'error', 0.3, 1);
    const down = new Set<string>(['http://refund/metrics']);
    const reader = new OperatorCallHealthReader({
      urls: ['http://bridge/metrics', 'http://expiry/metrics', 'http://refund/metrics'],
      timeoutMs: 500,
      now: () => 1_000,
      fetch: fakeFetch({ 'http://bridge/metrics': bridge.registry, 'http://expiry/metrics': expiry.registry }, down),
    });
    const health = await reader.read();
    expect(health.configured).toBe(true);
    expect(health.sources).toEqual([
      { url: 'http://bridge/metrics', ok: true },
      { url: 'http://expiry/metrics', ok: true },
      { url: 'http://refund/metrics', ok: false, error: 'unreachable' },
    ]);
    const ciMtn = health.cumulative.get('CI:MTN')!;
    expect(ciMtn).toMatchObject({ calls: 10, ok: 8, refused: 1, unavailable: 1, error: 0, successRate: 0.8 });
    // 6 calls in (0.025, 0.05], 1 in (0.05, 0.1], 2 in (0.1, 0.25], 1 in (5, 10]: the 5th of 10 and the 9.5th.
    expect(ciMtn.p50).toBeCloseTo(0.025 + 0.025 * (5 / 6));
    expect(ciMtn.p95).toBeCloseTo(5 + 5 * 0.5);
    expect(health.cumulative.get('SN:WAVE')).toMatchObject({ calls: 1, error: 1, successRate: 0 });
    expect(health.recent).toBeNull();
  });

  it('recent figures: the calls between the oldest scrape of the window and this one, a restarted process counted from zero', async () => {
    let now = 0;
    const bridge = processMetrics();
    let expiry = processMetrics();
    const processes: Record<string, Registry> = {
      'http://bridge/metrics': bridge.registry,
      'http://expiry/metrics': expiry.registry,
    };
    const reader = new OperatorCallHealthReader({
      urls: Object.keys(processes),
      timeoutMs: 500,
      now: () => now,
      fetch: fakeFetch(processes),
    });
    bridge.calls('CI:MTN', 'ok', 0.04, 100);
    expiry.calls('CI:MTN', 'ok', 0.04, 50);
    await reader.read();

    now += 60_000;
    bridge.calls('CI:MTN', 'unavailable', 10, 3);
    bridge.calls('CI:MTN', 'ok', 0.04, 1);
    // The expiry worker restarted: its counters start again, below what the earlier scrape read.
    expiry = processMetrics();
    processes['http://expiry/metrics'] = expiry.registry;
    expiry.calls('CI:MTN', 'ok', 0.04, 2);
    const health = await reader.read();
    expect(health.cumulative.get('CI:MTN')).toMatchObject({ calls: 106, unavailable: 3 });
    expect(health.recent).toMatchObject({ sinceMs: 60_000, partial: false });
    expect(health.recent!.byAccount.get('CI:MTN')).toMatchObject({ calls: 6, ok: 3, unavailable: 3, successRate: 0.5 });

    // Past the window, the first scrape is dropped: the second one is the baseline.
    now += RECENT_WINDOW_MS - 30_000;
    bridge.calls('CI:MTN', 'refused', 0.04, 1);
    const later = await reader.read();
    expect(later.recent).toMatchObject({ sinceMs: RECENT_WINDOW_MS - 30_000 });
    expect(later.recent!.byAccount.get('CI:MTN')).toMatchObject({ calls: 1, refused: 1 });
  });

  it('recent figures are marked partial when a process answered only one of the two scrapes', async () => {
    let now = 0;
    const bridge = processMetrics();
    const expiry = processMetrics();
    const down = new Set(['http://expiry/metrics']);
    const reader = new OperatorCallHealthReader({
      urls: ['http://bridge/metrics', 'http://expiry/metrics'],
      timeoutMs: 500,
      now: () => now,
      fetch: fakeFetch({ 'http://bridge/metrics': bridge.registry, 'http://expiry/metrics': expiry.registry }, down),
    });
    await reader.read();
    now += 30_000;
    down.clear();
    expiry.calls('CI:MTN', 'ok', 0.04, 5);
    const health = await reader.read();
    expect(health.recent).toMatchObject({ partial: true });
    // The expiry worker's calls are in the cumulative figure, not in the recent one (no earlier reading).
    expect(health.cumulative.get('CI:MTN')).toMatchObject({ calls: 5 });
    expect(health.recent!.byAccount.get('CI:MTN')).toBeUndefined();
  });

  it('a process that does not answer in time is reported as timed out', async () => {
    const hanging = ((_url: string, init?: RequestInit) =>
      new Promise((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
      })) as typeof fetch;
    const reader = new OperatorCallHealthReader({ urls: ['http://slow/metrics'], timeoutMs: 20, fetch: hanging });
    expect((await reader.read()).sources).toEqual([
      { url: 'http://slow/metrics', ok: false, error: 'no answer in 20 ms' },
    ]);
  });

  it('quantiles interpolate within the bucket holding the rank (histogram_quantile), the +Inf bucket gives the highest bound', () => {
    expect(
      quantileOfBuckets(
        new Map([
          [0.1, 0],
          [1, 10],
          [Infinity, 10],
        ]),
        0.5,
      ),
    ).toBeCloseTo(0.55);
    expect(
      quantileOfBuckets(
        new Map([
          [0.1, 0],
          [1, 1],
          [Infinity, 10],
        ]),
        0.95,
      ),
    ).toBe(1);
    expect(
      quantileOfBuckets(
        new Map([
          [0.1, 0],
          [Infinity, 0],
        ]),
        0.5,
      ),
    ).toBeNull();
  });

  it('OPERATOR_METRICS_URLS: comma-separated, blanks ignored', () => {
    expect(metricsUrlsOf(' http://a/metrics, ,http://b/metrics ')).toEqual(['http://a/metrics', 'http://b/metrics']);
    expect(metricsUrlsOf('')).toEqual([]);
  });
});
