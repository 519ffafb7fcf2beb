import type { RequestHandler } from 'express';
import type { Logger } from './logger.js';
import type { Registry } from 'prom-client';

export type ReadinessCheck = () => Promise<unknown>;

/** What /ready says of one check: never the error itself (see readiness()). */
export type CheckResult = 'ok' | 'failed' | 'timeout';

const CHECK_TIMEOUT_MS = 2000;

/** GET /health: the process answers. Checks nothing external, so a database outage restarts no pod. */
export const liveness: RequestHandler = (_req, res) => {
  res.json({ status: 'ok' });
};

/**
 * GET /ready: 200 when every check answers within 2 s, else 503. Each check reads `ok`, `failed` or
 * `timeout`, never the error's text: a driver's message names hosts, ports, users and databases. The
 * error goes to the log instead, once when a check starts failing (with its cause) and once when it
 * recovers, not on every probe.
 */
export function readiness(checks: Record<string, ReadinessCheck>, logger: Logger): RequestHandler {
  const last = new Map<string, CheckResult>();
  const run = async (name: string, check: ReadinessCheck): Promise<[string, CheckResult]> => {
    let result: CheckResult = 'ok';
    let error: unknown;
    try {
      await withTimeout(check(), CHECK_TIMEOUT_MS);
    } catch (err) {
      error = err;
      result = err instanceof CheckTimeout ? 'timeout' : 'failed';
    }
    const before = last.get(name) ?? 'ok';
    last.set(name, result);
    if (result !== 'ok' && before === 'ok') logger.warn({ check: name, result, err: error }, 'readiness check failing');
    if (result === 'ok' && before !== 'ok') logger.info({ check: name }, 'readiness check recovered');
    return [name, result];
  };
  return async (_req, res) => {
    const results = await Promise.all(Object.entries(checks).map(([name, check]) => run(name, check)));
    const ready = results.every(([, r]) => r === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  };
}

/** GET /metrics: the registry in Prometheus's text format. */
export function metricsEndpoint(registry: Registry): RequestHandler {
  return async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  };
}

class CheckTimeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new CheckTimeout(`no answer within ${ms} ms`)), ms).unref()),
  ]);
}
