export { createLogger, type Logger } from './logger.js';
export { createMetricsRegistry, referenceChangesGauge, Counter, Gauge, Histogram, Registry } from './metrics.js';
export { liveness, readiness, metricsEndpoint, type ReadinessCheck, type CheckResult } from './health.js';
export { startInternalServer, type InternalServer, type InternalServerOptions } from './internal-server.js';
export { assertRedisNoEviction } from './redis-policy.js';
export { listen } from './listen.js';
export { requestId } from './request-id.js';
export { accessLog } from './access-log.js';
export { httpMetrics, singleMetric, LATENCY_BUCKETS } from './http-metrics.js';
