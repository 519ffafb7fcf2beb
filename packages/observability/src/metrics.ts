import { Registry, collectDefaultMetrics, Counter, Gauge, Histogram } from 'prom-client';

export { Counter, Gauge, Histogram, Registry };

/** One registry per service process, with Node's default metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
