import { Writable } from 'node:stream';
import { createLogger } from './logger.js';
import { createMetricsRegistry } from './metrics.js';
import { startInternalServer, type InternalServer } from './internal-server.js';

/** What a PostgreSQL driver says when the database is down: host, port, user and database in clear. */
const DRIVER_ERROR =
  'connect ECONNREFUSED 10.20.30.40:5432 (db-primary.payments.internal, user mm_gateway, database mobilemoney)';

describe('startInternalServer: /health, /ready and /metrics on the internal port', () => {
  let server: InternalServer;
  const lines: string[] = [];
  let database: () => Promise<unknown> = async () => 1;
  let redis: () => Promise<unknown> = async () => 'PONG';

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    server = await startInternalServer({
      port: 0,
      readiness: { database: () => database(), redis: () => redis() },
      metrics: createMetricsRegistry('internal-server-test'),
      logger: createLogger('internal-server-test', 'info', sink),
    });
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    database = async () => 1;
    redis = async () => 'PONG';
  });

  it('serves liveness, readiness and the metrics of its registry', async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toMatch(/^process_cpu_user_seconds_total\{service="internal-server-test"\}/m);
    expect((await fetch(`${server.url}/api/v1/payments`)).status).toBe(404);
  });

  it('a failing check is 503 with a short reason, never the error text, which goes to the log once', async () => {
    database = async () => {
      throw new Error(DRIVER_ERROR);
    };
    lines.length = 0;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/ready`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: 'not_ready', checks: { database: 'failed', redis: 'ok' } });
      expect(text).not.toMatch(/ECONNREFUSED|10\.20\.30\.40|payments\.internal|mm_gateway|5432/);
    }
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; check?: string; err?: { message: string } });
    expect(logged.filter((l) => l.msg === 'readiness check failing')).toEqual([
      expect.objectContaining({ check: 'database', err: expect.objectContaining({ message: DRIVER_ERROR }) }),
    ]);
    database = async () => 1;
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain('readiness check recovered');
  });

  it('a check that does not answer within 2 s reads "timeout"', async () => {
    redis = () => new Promise(() => undefined);
    const res = await fetch(`${server.url}/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', redis: 'timeout' } });
  });
});
