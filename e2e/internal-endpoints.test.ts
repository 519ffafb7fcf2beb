import { TestClient } from '@mm/testing';
import { startSystemBackoffice, STAFF_PASSWORD } from './support/backoffice.js';
import { startSystem, type System } from './support/system.js';

/**
 * Readiness and metrics are for the platform (kubelet, Prometheus), not for whoever reaches a public
 * address: the merchant API and payment page (gateway), the staff app (back-office) and the operator's
 * callbacks (bridge) serve /health alone; /health, /ready and /metrics are on each service's internal
 * port, which workers already had as their only one.
 */
let sys: System;
let backoffice: Awaited<ReturnType<typeof startSystemBackoffice>>;

beforeAll(async () => {
  sys = await startSystem();
  backoffice = await startSystemBackoffice(sys);
}, 60_000);
afterAll(async () => {
  await backoffice?.stop();
  await sys?.stop();
});

const publicUrls = () => ({ gateway: sys.gatewayUrl, bridge: sys.bridgeUrl });

describe('public ports', () => {
  it('gateway and bridge answer /health, and 404 to /ready and /metrics', async () => {
    for (const [service, url] of Object.entries(publicUrls())) {
      expect({ service, health: (await fetch(`${url}/health`)).status }).toEqual({ service, health: 200 });
      for (const path of ['/ready', '/metrics']) {
        const res = await fetch(`${url}${path}`);
        const text = await res.text();
        expect({ service, path, status: res.status }).toEqual({ service, path, status: 404 });
        expect(text).not.toMatch(/mm_|process_cpu|"checks"/);
      }
    }
  });

  it('the back-office answers /health; /ready and /metrics are pages like any other: login first, then 404', async () => {
    expect((await fetch(`${backoffice.url}/health`)).status).toBe(200);
    const anonymous = new TestClient(backoffice.url);
    expect(await anonymous.get('/metrics')).toMatchObject({ status: 303, location: '/login?next=%2Fmetrics' });
    expect(await anonymous.get('/ready')).toMatchObject({ status: 303, location: '/login?next=%2Fready' });
    const admin = new TestClient(backoffice.url);
    expect((await admin.logIn(await backoffice.staff('admin'), STAFF_PASSWORD)).status).toBe(303);
    for (const path of ['/metrics', '/ready']) {
      const page = await admin.get(path);
      expect({ path, status: page.status }).toEqual({ path, status: 404 });
      expect(page.text).not.toMatch(/mm_backoffice|process_cpu|"checks"/);
    }
  });
});

describe('internal ports', () => {
  it('every service serves /health, /ready (checks without error text) and its /metrics there', async () => {
    const internal = { ...sys.internalUrls, backoffice: backoffice.internalUrl };
    const names = {
      gateway: 'gateway',
      bridge: 'operator-bridge',
      expiry: 'expiry-worker',
      refunds: 'refund-worker',
      dispatcher: 'webhook-dispatcher',
      backoffice: 'backoffice',
    };
    for (const [service, url] of Object.entries(internal)) {
      expect({ service, health: (await fetch(`${url}/health`)).status }).toEqual({ service, health: 200 });
      const ready = await fetch(`${url}/ready`);
      const body = (await ready.json()) as { status: string; checks: Record<string, string> };
      expect({ service, status: ready.status, body: body.status }).toEqual({ service, status: 200, body: 'ready' });
      expect(Object.values(body.checks).every((r) => r === 'ok')).toBe(true);
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toContain(`process_cpu_user_seconds_total{service="${names[service as keyof typeof names]}"}`);
    }
    expect(Object.keys(internal).sort()).toEqual(Object.keys(names).sort());
  });
});
