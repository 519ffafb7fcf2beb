import { Registry, collectDefaultMetrics, Counter, Gauge, Histogram } from 'prom-client';

export { Counter, Gauge, Histogram, Registry };

/** One registry per service process, with Node's default metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** 1 while PostgreSQL's change notifications reach this process (its reference caches are in use), 0 otherwise. */
export function referenceChangesGauge(registry: Registry, feed: { readonly listening: boolean }): void {
  new Gauge({
    name: 'mm_reference_changes_listening',
    help: '1 while PostgreSQL change notifications reach this process (API keys, merchant statuses and subsidiaries served from memory); 0 while they are read from the database every time.',
    registers: [registry],
    collect() { this.set(feed.listening ? 1 : 0); },
  });
}
