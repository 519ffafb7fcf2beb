import type { Queue } from 'bullmq';
import { Gauge, Histogram, LATENCY_BUCKETS, singleMetric, type Registry } from '@mm/observability';

const DEPTH_STATES = ['waiting', 'active', 'delayed', 'failed', 'prioritized', 'paused'] as const;
/** The queues whose depth each registry reports: every worker of a process adds its own. */
const depthSources = new WeakMap<Registry, Queue[]>();

/**
 * mm_queue_jobs{queue, state}: read from Redis when Prometheus scrapes. Every replica of a consumer
 * reports the same numbers; dashboards take the max per queue.
 */
export function reportQueueDepth(registry: Registry, queue: Queue): () => void {
  depthSources.set(registry, [...(depthSources.get(registry) ?? []), queue]);
  singleMetric(
    registry,
    'mm_queue_jobs',
    () =>
      new Gauge({
        name: 'mm_queue_jobs',
        help: 'Jobs in each queue by state (waiting, active, delayed, failed, prioritized, paused), read from Redis at scrape time.',
        labelNames: ['queue', 'state'],
        registers: [registry],
        async collect() {
          for (const q of depthSources.get(registry) ?? []) {
            // Redis unreachable: the series keep their last values rather than failing the whole scrape.
            const counts = await q.getJobCounts(...DEPTH_STATES).catch(() => null);
            if (counts) for (const state of DEPTH_STATES) this.set({ queue: q.name, state }, counts[state] ?? 0);
          }
        },
      }),
  );
  return () =>
    depthSources.set(
      registry,
      (depthSources.get(registry) ?? []).filter((q) => q !== queue),
    );
}

/** mm_queue_job_duration_seconds{queue, outcome}: one observation per run of a job, completed or failed. */
export function jobDurations(registry: Registry): Histogram<'queue' | 'outcome'> {
  return singleMetric(
    registry,
    'mm_queue_job_duration_seconds',
    () =>
      new Histogram({
        name: 'mm_queue_job_duration_seconds',
        help: 'Job runs by queue and outcome (completed, failed: a failed run is retried or, after its last attempt, left failed), with their duration.',
        labelNames: ['queue', 'outcome'],
        buckets: LATENCY_BUCKETS,
        registers: [registry],
      }),
  );
}
