import { readFileSync } from 'node:fs';
import { samplesOf, sumBy, waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import { newOrderId } from './support/contract.js';

/**
 * Issue 8: every service's /metrics after real traffic (a cash-in to SUCCESS, a full refund, one that
 * fails at the operator, a refused status query): the series an SRE's dashboard and alerts read
 * (infra/grafana), with the values that traffic must have produced.
 */
let sys: System;
let metricsOf: (service: 'gateway' | 'bridge' | 'expiry' | 'refunds' | 'dispatcher' | 'simulator') => Promise<string>;

beforeAll(async () => {
  sys = await startSystem();
  const urls = { ...sys.internalUrls, simulator: sys.sim.url };
  metricsOf = async (service) => (await fetch(`${urls[service]}/metrics`)).text();

  const paid = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: newOrderId('metrics'),
    amount: 5000,
    customer_msisdn: CI_NUMBER('01'),
  });
  expect(paid.status).toBe(202);
  const rejected = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: newOrderId('metrics'),
    amount: 5000,
    customer_msisdn: CI_NUMBER('07'),
  });
  expect(rejected.status).toBe(202);
  const id = paid.body.data.transaction_id as string;
  await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
    what: 'SUCCESS',
  });
  expect((await sys.api('GET', '/api/v1/payments/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  const refund = await sys.api('POST', '/api/v1/refunds', { transaction_id: id });
  expect(refund.status).toBe(202);
  await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'REVERSED', {
    what: 'REVERSED',
  });
  await waitFor(async () => (await sys.db.webhookEvent.count({ where: { status: 'DELIVERED' } })) >= 4, {
    what: 'four webhooks delivered',
  });
});
afterAll(async () => {
  await sys.stop();
});

const count = (text: string, name: string, labels: Record<string, string>) =>
  samplesOf(text, name)
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);

describe('/metrics of every service', () => {
  it('gateway: request latency by route template and status, transitions it committed, the reference-changes gauge', async () => {
    const text = await metricsOf('gateway');
    expect(
      count(text, 'mm_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/payments/cashin',
        status: '202',
      }),
    ).toBe(2);
    expect(
      count(text, 'mm_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/payments/:id',
        status: '404',
      }),
    ).toBe(1);
    expect(
      count(text, 'mm_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/refunds',
        status: '202',
      }),
    ).toBe(1);
    // No raw ids in labels: the series stay bounded whatever the traffic.
    expect(
      samplesOf(text, 'mm_http_request_duration_seconds_count').every((s) => !/[0-9a-f]{8}-/.test(s.labels.route!)),
    ).toBe(true);
    expect(count(text, 'mm_transaction_transitions_total', { type: 'CASHIN', from: 'NONE', to: 'CREATED' })).toBe(2);
    expect(count(text, 'mm_reference_changes_listening', {})).toBe(1);
  });

  it('operator bridge: jobs by queue and outcome, queue depth, operator calls by outcome, transitions, callbacks served', async () => {
    const text = await metricsOf('bridge');
    expect(
      count(text, 'mm_queue_job_duration_seconds_count', { queue: 'operator-requests', outcome: 'completed' }),
    ).toBe(2);
    // The simulator's signed callback is applied in the callback's request; one that runs past the request's bound
    // (a loaded machine) is queued and applied by the worker instead: counted once, as one or the other.
    const queued = count(text, 'mm_operator_callbacks_total', { outcome: 'queued' });
    expect(count(text, 'mm_operator_callbacks_total', { outcome: 'applied' }) + queued).toBeGreaterThanOrEqual(1);
    expect(
      count(text, 'mm_queue_job_duration_seconds_count', { queue: 'operator-results', outcome: 'completed' }),
    ).toBe(queued);
    // reconciliation-runs: tonight's run of each enabled operator account (CI, SN, CM's simulator), delayed.
    expect(sumBy(text, 'mm_queue_jobs', (l) => l.queue!)).toEqual({
      'operator-requests': 0,
      'operator-results': 0,
      'cashout-requests': 0,
      'customer-codes': 0,
      'reconciliation-runs': 3,
    });
    expect(count(text, 'mm_queue_jobs', { queue: 'reconciliation-runs', state: 'delayed' })).toBe(3);
    expect(samplesOf(text, 'mm_queue_jobs').map((s) => s.labels.state)).toEqual(
      expect.arrayContaining(['waiting', 'active', 'delayed', 'failed']),
    );
    expect(
      count(text, 'mm_operator_request_duration_seconds_count', {
        operator: 'simulator',
        operation: 'push',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      count(text, 'mm_operator_request_duration_seconds_count', {
        operator: 'simulator',
        operation: 'push',
        outcome: 'refused',
      }),
    ).toBe(1);
    expect(count(text, 'mm_transaction_transitions_total', { type: 'CASHIN', from: 'CREATED', to: 'INITIATED' })).toBe(
      2,
    );
    expect(count(text, 'mm_transaction_transitions_total', { type: 'CASHIN', from: 'INITIATED', to: 'FAILED' })).toBe(
      1,
    );
    expect(count(text, 'mm_transaction_transitions_total', { type: 'CASHIN', from: 'PENDING', to: 'SUCCESS' })).toBe(1);
    // The simulator calls back on its payment's account route (callback-url.ts).
    expect(
      count(text, 'mm_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/operator/callbacks/:operator/:country{/*rest}',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('refund worker: the refund paid at the operator, the move to REVERSED, its job', async () => {
    const text = await metricsOf('refunds');
    expect(count(text, 'mm_operator_request_duration_seconds_count', { operation: 'refund', outcome: 'ok' })).toBe(1);
    expect(count(text, 'mm_transaction_transitions_total', { type: 'CASHIN', from: 'SUCCESS', to: 'REVERSED' })).toBe(
      1,
    );
    expect(count(text, 'mm_queue_job_duration_seconds_count', { queue: 'refund-requests', outcome: 'completed' })).toBe(
      1,
    );
  });

  it('webhook dispatcher: attempts by outcome, its queue, the reference-changes gauge', async () => {
    const text = await metricsOf('dispatcher');
    expect(
      count(text, 'mm_webhook_attempts_seconds_count', { outcome: 'DELIVERED', success: 'true' }),
    ).toBeGreaterThanOrEqual(4);
    expect(
      count(text, 'mm_queue_job_duration_seconds_count', { queue: 'webhook-deliveries', outcome: 'completed' }),
    ).toBeGreaterThanOrEqual(4);
    expect(count(text, 'mm_reference_changes_listening', {})).toBe(1);
  });

  it('expiry worker and simulator serve theirs: queue depth of expiry checks, the operator side of the push', async () => {
    expect(
      samplesOf(await metricsOf('expiry'), 'mm_queue_jobs').filter((s) => s.labels.queue === 'expiry-checks').length,
    ).toBeGreaterThan(0);
    expect(
      count(await metricsOf('simulator'), 'mm_http_request_duration_seconds_count', { method: 'POST', status: '201' }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('infra/grafana/mobilemoney-dashboard.json', () => {
  it('queries only series that some service serves', async () => {
    const dashboard = JSON.parse(
      readFileSync(new URL('../infra/grafana/mobilemoney-dashboard.json', import.meta.url), 'utf8'),
    ) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const queried = new Set(
      dashboard.panels
        .flatMap((p) => p.targets ?? [])
        .flatMap((t) => t.expr.match(/\b(?:mm|process|nodejs)_\w+/g) ?? []),
    );
    expect(queried.size).toBeGreaterThan(10);
    const served = (
      await Promise.all((['gateway', 'bridge', 'expiry', 'refunds', 'dispatcher', 'simulator'] as const).map(metricsOf))
    ).join('\n');
    const missing = [...queried].filter((name) => !new RegExp(`^${name}[{ ]`, 'm').test(served));
    expect(missing).toEqual([]);
  });
});
