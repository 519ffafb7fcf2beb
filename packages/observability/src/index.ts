export { createLogger, logFlushMsFrom, logFormatFrom, type Logger, type LogFormat } from './logger.js';
export {
  createMetricsRegistry,
  dbConfigurationErrorsCounter,
  readReplicaMetrics,
  referenceChangesGauge,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type ReplicaView,
} from './metrics.js';
export { liveness, readiness, metricsEndpoint, type ReadinessCheck, type CheckResult } from './health.js';
export { startInternalServer, type InternalServer, type InternalServerOptions } from './internal-server.js';
export { assertRedisNoEviction } from './redis-policy.js';
export { listen } from './listen.js';
export { requestId } from './request-id.js';
export { accessLog } from './access-log.js';
export { httpMetrics, singleMetric, LATENCY_BUCKETS } from './http-metrics.js';
export { observeRequests } from './observe-requests.js';
export { parsePrometheusText, type PromSample } from './prometheus-text.js';
export { clientAddressBucket } from './client-address.js';
export { runUntilSignal } from './run-until-signal.js';
