import { Registry, collectDefaultMetrics, Counter, Histogram } from 'prom-client';

export { Counter, Histogram, Registry };

/** One registry per service process, with Node's default metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
