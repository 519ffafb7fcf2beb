import { samplesOf } from '@mm/testing';
import type { ChaosSystem } from './chaos-system.js';
import type { ServiceProcess } from './service-process.js';

/** One kind of work and how much of it each instance of its service did, read from the instance's own /metrics. */
export interface Work {
  what: string;
  perInstance: number[];
}

async function scrape(p: ServiceProcess): Promise<string> {
  const res = await fetch(`${p.spec.internalUrl}/metrics`, { signal: AbortSignal.timeout(15_000) });
  if (!res.ok) throw new Error(`${p.spec.name} /metrics: ${res.status}`);
  return res.text();
}

/** HTTP requests on routes under `prefix`: readiness probes and scrapes are not work. */
const requests = (prefix: string) => (text: string) =>
  samplesOf(text, 'mm_http_request_duration_seconds_count')
    .filter((s) => s.labels.route?.startsWith(prefix))
    .reduce((sum, s) => sum + s.value, 0);

/**
 * Operator results this process applied: in the callback's request (a signed result needing only the
 * database, within its bound) or by its operator-results worker (the rest). Which of the two takes a
 * result depends on load, so only their sum is a share of the work.
 */
const appliedResults = (text: string) =>
  samplesOf(text, 'mm_operator_callbacks_total')
    .filter((s) => s.labels.outcome === 'applied')
    .reduce((sum, s) => sum + s.value, 0) + jobs('operator-results')(text);

/** Runs of a queue's jobs that completed in this process (the counter is per process, not per queue). */
const jobs = (queue: string) => (text: string) =>
  samplesOf(text, 'mm_queue_job_duration_seconds_count')
    .filter((s) => s.labels.queue === queue && s.labels.outcome === 'completed')
    .reduce((sum, s) => sum + s.value, 0);

/**
 * What every instance of the gateway and of each worker did. Each consumer queue is its own row: a
 * bridge that only applied results but never pushed would not be sharing the pushes.
 */
export async function workByInstance(sys: ChaosSystem): Promise<Work[]> {
  const rows: [string, ServiceProcess[], (text: string) => number][] = [
    ['gateway: merchant API requests', sys.instances.gateway, requests('/api/v1/')],
    ['bridge: operator-requests jobs (pushes)', sys.instances.bridge, jobs('operator-requests')],
    ['bridge: operator callbacks received', sys.instances.bridge, requests('/operator/callbacks/')],
    ['bridge: operator results applied (in the callback or by the worker)', sys.instances.bridge, appliedResults],
    ['expiry: expiry-checks jobs', sys.instances.expiry, jobs('expiry-checks')],
    ['refunds: refund-requests jobs', sys.instances.refunds, jobs('refund-requests')],
    ['dispatcher: webhook-deliveries jobs', sys.instances.dispatcher, jobs('webhook-deliveries')],
  ];
  return Promise.all(
    rows.map(async ([what, processes, count]) => ({
      what,
      perInstance: (await Promise.all(processes.map(scrape))).map(count),
    })),
  );
}

/**
 * Every kind of work done by at least `instances` instances, each with at least `minShare` of it, out
 * of at least `minTotal` (fewer jobs than that and a share says nothing). Returns what falls short.
 */
export function unshared(work: Work[], o: { instances: number; minShare: number; minTotal: number }): string[] {
  const found: string[] = [];
  for (const { what, perInstance } of work) {
    const total = perInstance.reduce((s, n) => s + n, 0);
    if (perInstance.length < o.instances)
      found.push(`${what}: ${perInstance.length} instance(s), expected ${o.instances}`);
    if (total < o.minTotal) found.push(`${what}: only ${total} in all, the load must give at least ${o.minTotal}`);
    perInstance.forEach((n, i) => {
      if (n < o.minShare * total)
        found.push(`${what}: instance ${i} did ${n} of ${total} (under ${o.minShare * 100}%)`);
    });
  }
  return found;
}

export function workTable(work: Work[]): string {
  return work
    .map(({ what, perInstance }) => `${what.padEnd(42)} ${perInstance.map((n) => String(n).padStart(6)).join(' ')}`)
    .join('\n');
}
