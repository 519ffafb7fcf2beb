/**
 * /operators' Health column against a real back-office: the database's last hour of cash-ins per account,
 * and the operator calls scraped from stand-in worker processes (an HTTP server answering /metrics from
 * a prom-client registry, as the workers' internal ports do), one of them not running.
 */
import { createServer, type Server } from 'node:http';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createCashin, transition } from '@mm/db/payments';
import type { TransactionStatus } from '@mm/domain';
import { Histogram, LATENCY_BUCKETS, Registry } from '@mm/observability';
import { freePort } from '@mm/testing';
import { CALLS_METRIC } from '../operator-health.js';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import { loggedIn } from '../test-support/merchant-test-helpers.js';

describe('backoffice operator health', () => {
  let bo: BackofficeFixture;
  let worker: Server;
  let workerUrl: string;
  let missingUrl: string;
  let now = Date.now();
  const registry = new Registry();
  const calls = new Histogram({
    name: CALLS_METRIC,
    help: 'h',
    labelNames: ['operator', 'account', 'operation', 'outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const observe = (account: string, outcome: string, seconds: number, n: number) => {
    for (let i = 0; i < n; i++) calls.observe({ operator: 'MTN', account, operation: 'push', outcome }, seconds);
  };
  const rowOf = (text: string, key: string) =>
    new RegExp(`<tr data-account="${key}">[\\s\\S]*?</tr>`).exec(text)?.[0] ?? '';

  beforeAll(async () => {
    worker = createServer((_req, res) => {
      void registry.metrics().then((text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text));
    });
    await new Promise<void>((resolve) => worker.listen(0, '127.0.0.1', resolve));
    workerUrl = `http://127.0.0.1:${(worker.address() as { port: number }).port}/metrics`;
    // Nothing listens there: a worker that is down.
    missingUrl = `http://127.0.0.1:${await freePort()}/metrics`;
    bo = await startBackofficeFixture(
      { OPERATOR_METRICS_URLS: `${workerUrl},${missingUrl}`, OPERATOR_METRICS_TIMEOUT_MS: '2000' },
      { now: () => now },
    );
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(bo.db, s);
    const merchantId = (await createMerchant(bo.db, { name: 'Shop', webhookUrl: null })).id;
    let order = 0;
    const cashin = async (operator: string, path: TransactionStatus[]) => {
      const r = await createCashin(bo.db, {
        merchantId,
        merchantOrderId: `o-${++order}`,
        amount: 500,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250500000001',
        motif: null,
        returnUrl: null,
        notifyUrl: null,
        metadata: null,
        requestFingerprint: 'fp',
        operator,
      });
      if (r.kind !== 'created') throw new Error('not created');
      for (const to of path)
        await bo.db.$transaction((tx) => transition(tx, { transactionId: r.transaction.id, to, cause: 'test' }));
    };
    await cashin('MTN', ['INITIATED', 'SUCCESS']);
    await cashin('MTN', ['INITIATED', 'SUCCESS']);
    await cashin('MTN', ['INITIATED', 'FAILED']);
    await cashin('MTN', ['INITIATED', 'PENDING', 'EXPIRED']);
    await cashin('MTN', ['INITIATED']);
  });
  afterAll(async () => {
    await bo.stop();
    await new Promise((resolve) => worker.close(resolve));
  });

  it("shows each account's last hour of cash-ins and its operator calls; a process not read is named and the figures marked, never zero", async () => {
    observe('CI:MTN', 'ok', 0.04, 8);
    observe('CI:MTN', 'unavailable', 10, 1);
    observe('CI:MTN', 'refused', 0.07, 1);
    const { client } = await loggedIn(bo, 'viewer');
    const page = await client.get('/operators');
    expect(page.status).toBe(200);
    const ciMtn = rowOf(page.text, 'CI:MTN');
    expect(ciMtn).toContain(
      '<div data-health-cashins>Last hour: <strong>5</strong> cash-ins: 2 SUCCESS, 1 FAILED, 1 EXPIRED, 1 pending</div>',
    );
    expect(ciMtn).toContain(
      'Since the processes started: <strong>10</strong> calls, <span data-success-rate>80.0%</span> ok',
    );
    expect(ciMtn).toContain(
      'unavailable <span data-unavailable>1</span>, refused <span data-refused>1</span>, error <span data-error>0</span>',
    );
    expect(ciMtn).toMatch(/p50 <span data-p50>\d+ ms<\/span>, p95 <span data-p95>[\d.]+ s<\/span>/);
    expect(ciMtn).toContain('<span class="badge off" data-partial>1 of 2 processes read</span>');
    expect(rowOf(page.text, 'SN:WAVE')).toContain(
      'Last hour: no cash-in</div><div data-health-calls>Since the processes started: no call',
    );
    expect(page.text).toContain(
      `<li data-source="${workerUrl}"><code>${workerUrl}</code> <span class="badge ok">read</span></li>`,
    );
    expect(page.text).toContain(
      `<li data-source="${missingUrl}"><code>${missingUrl}</code> <span class="badge off" data-unread>not read</span> unreachable</li>`,
    );
  });

  it('a later load shows the calls of the last minutes too, against the earlier scrape kept in memory', async () => {
    const { client } = await loggedIn(bo, 'viewer');
    await client.get('/operators');
    now += 120_000;
    observe('CI:MTN', 'unavailable', 10, 3);
    observe('CI:MTN', 'ok', 0.04, 1);
    const ciMtn = rowOf((await client.get('/operators')).text, 'CI:MTN');
    expect(ciMtn).toContain(
      '<div data-health-recent>Last 2 min: <strong>4</strong> calls, <span data-success-rate>25.0%</span> ok;',
    );
    expect(ciMtn).toContain('unavailable <span data-unavailable>3</span>');
    // The worker that is down is still missing: the recent figure says it is partial.
    expect(ciMtn).toContain('<span class="badge off">partial</span></div>');
  });
});
