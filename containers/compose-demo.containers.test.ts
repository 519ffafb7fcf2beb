/**
 * docker-compose.yml's demo profile, run by Docker Compose on podman with the images built here: every
 * service healthy after what it depends on, the README's curl cash-in through the published port to
 * SUCCESS with its webhook in the demo inbox, a refund, the back-office login, the merchant dashboard's
 * sign-in as the demo owner (password, then a code of its published TOTP secret), `ledger:verify` in the
 * one-shot container; a service killed inside its container comes back by its restart policy with
 * nothing lost; the data survives `down` and `up`; each service stops on SIGTERM with exit 0.
 */
import { readFileSync } from 'node:fs';
import {
  ComposeProject,
  DEMO_VARIABLES,
  generatedSecrets,
  waitHealthy,
  ONE_SHOT_SERVICES,
  type ContainerState,
} from './lib/compose.js';
import {
  api,
  BACKOFFICE,
  backofficeLogin,
  cashInToSuccess,
  GATEWAY,
  portalSignIn,
  readmeCashIn,
  waitForInboxWebhook,
  waitForStatus,
} from './lib/merchant-flow.js';
import { startPodmanApi, type PodmanApi } from './lib/podman-api.js';
import { podman } from './lib/podman.js';
import { recordFigures } from './lib/figures.js';
import { waitFor } from '@mm/testing';

describe('docker compose --profile demo up', () => {
  let podmanApi: PodmanApi;
  let demo: ComposeProject;
  let states: Map<string, ContainerState>;
  let paid: string;

  beforeAll(async () => {
    podmanApi = await startPodmanApi();
    demo = new ComposeProject(podmanApi, 'mmdemo', [], { ...DEMO_VARIABLES, ...generatedSecrets() }, ['demo']);
    await demo.down();
  });
  afterAll(async () => {
    await demo?.down().catch(() => undefined);
    await podmanApi?.close();
  });

  it('brings every service up healthy, each after what it depends on: PostgreSQL healthy, then migrate, then the services', async () => {
    const started = Date.now();
    await demo.up();
    states = await waitHealthy(demo);
    recordFigures('compose-demo', { secondsToHealthy: (Date.now() - started) / 1000 });
    const migrate = states.get('migrate')!;
    // depends_on postgres: service_healthy. Its first passing check began before it turned healthy.
    const postgresHealthy = podmanApi.firstHealthy(states.get('postgres')!);
    expect(postgresHealthy).not.toBeNull();
    expect(new Date(migrate.startedAt).getTime()).toBeGreaterThanOrEqual(postgresHealthy!);
    const seed = states.get('demo-seed')!;
    expect(new Date(seed.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(migrate.finishedAt).getTime());
    for (const [service, state] of states) {
      if (
        ONE_SHOT_SERVICES.has(service) ||
        ['postgres', 'redis', 'operator-simulator', 'webhook-inbox'].includes(service)
      )
        continue;
      // depends_on migrate: service_completed_successfully
      expect({ service, after: new Date(state.startedAt).getTime() >= new Date(migrate.finishedAt).getTime() }).toEqual(
        { service, after: true },
      );
    }
  });

  it("carries the README's curl cash-in on the published port to SUCCESS, its webhook signed in the demo inbox", async () => {
    paid = await cashInToSuccess();
  });

  it('refunds part of it: the refund reaches SUCCESS through the refund worker', async () => {
    const refund = await api()('POST', '/refunds', { transaction_id: paid, amount: 2000, reason: 'one item returned' });
    expect(refund.status).toBe(202);
    await waitForStatus(`/refunds/${refund.body.data.refund_id}`, 'SUCCESS');
  });

  it('lets the demo admin log in to the back-office, whose Bull dashboard serves its page and scripts (files copied beside the bundle)', async () => {
    const { client, homeStatus } = await backofficeLogin();
    expect(homeStatus).toBe(200);
    const dashboard = await client.get('/queues/');
    expect(dashboard.status).toBe(200);
    const script = /(?:src|href)="([^"]*static\/[^"]+\.js)"/.exec(dashboard.text)?.[1];
    expect(script).toBeDefined();
    expect((await client.get(new URL(script!, `${BACKOFFICE}/queues/`).pathname)).status).toBe(200);
  });

  it("serves the merchant dashboard's sign-in page, and the demo owner signs in with the README's password and TOTP secret", async () => {
    const { loginStatus, home } = await portalSignIn();
    expect(loginStatus).toBe(200);
    expect(home.status).toBe(200);
    expect(home.text).toContain('Demo Shop');
    // /ready and /metrics on the internal port only, as every service's: on the public one they are pages
    // like any other, which send a signed-out visitor to the sign-in.
    for (const path of ['/ready', '/metrics']) {
      const res = await fetch(`http://127.0.0.1:3008${path}`, { redirect: 'manual' });
      expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({
        path,
        status: 303,
        location: expect.stringMatching(/^\/login/),
      });
    }
    const internal = await demo.exec('merchant-portal', [
      'node',
      '-e',
      "fetch('http://127.0.0.1:3108/ready').then(async (r) => console.log(r.status, (await fetch('http://127.0.0.1:3108/metrics')).status))",
    ]);
    expect(internal.trim()).toBe('200 200');
  });

  it("serves the API reference's Swagger UI files from the gateway image, and /ready and /metrics on the internal port only", async () => {
    expect((await fetch(`${GATEWAY}/api/v1/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect((await fetch(`${GATEWAY}/ready`)).status).toBe(404);
    expect((await fetch(`${GATEWAY}/metrics`)).status).toBe(404);
    const internal = await demo.exec('gateway', [
      'node',
      '-e',
      "fetch('http://127.0.0.1:3100/ready').then(async (r) => console.log(r.status, (await fetch('http://127.0.0.1:3100/metrics')).status))",
    ]);
    expect(internal.trim()).toBe('200 200');
  });

  it('ledger:verify in the one-shot container says the ledger balances', async () => {
    const out = await demo.compose([
      'run',
      '--rm',
      '--no-deps',
      'migrate',
      'node',
      'dist/admin-cli.mjs',
      'ledger:verify',
    ]);
    expect(out).toMatch(/\bOK\b/);
  });

  it('restarts a service killed inside its container (restart: unless-stopped), and the webhook it owed is delivered', async () => {
    const before = await demo.state('webhook-dispatcher');
    // The cash-in is accepted, then its webhook's sender dies (SIGKILL to the container's process, as the
    // kernel's OOM killer would): the SUCCESS webhook is still owed, and still delivered.
    const { transaction_id: id } = await readmeCashIn();
    process.kill(before.pid, 'SIGKILL');
    // Healthy again by a check of the new run, not the status the killed one left.
    await waitFor(
      async () => {
        const now = await demo.state('webhook-dispatcher');
        return (
          now.restartCount > before.restartCount && now.health === 'healthy' && podmanApi.firstHealthy(now) !== null
        );
      },
      { what: 'webhook-dispatcher restarted and healthy', timeoutMs: 120_000, intervalMs: 1000 },
    );
    await waitForStatus(`/payments/${id}`, 'SUCCESS');
    expect((await waitForInboxWebhook(id, 'SUCCESS')).signature_valid).toBe(true);
  });

  it('keeps the data across `down` and `up` (the PostgreSQL volume)', async () => {
    const balances = await api()('GET', '/balances');
    await demo.down(true);
    await demo.up();
    await waitHealthy(demo);
    expect((await api()('GET', `/payments/${paid}`)).body.data.status).toBe('SUCCESS');
    expect((await api()('GET', '/balances')).body).toEqual(balances.body);
  });

  it("runs each service as the image's non-root user, and each stops on SIGTERM within its grace period with exit 0", async () => {
    const stops: Record<string, number> = {};
    for (const service of await demo.services()) {
      if (ONE_SHOT_SERVICES.has(service) || service === 'postgres' || service === 'redis') continue;
      const state = await demo.state(service);
      expect({ service, user: state.user }).toEqual({ service, user: 'node' });
      const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${state.pid}/status`, 'utf8'))?.[1];
      expect({ service, uid }).toEqual({ service, uid: '1000' });
      const started = Date.now();
      await podman(['stop', '--time', '30', state.id]);
      stops[service] = (Date.now() - started) / 1000;
      const stopped = await demo.state(service);
      expect({ service, exitCode: stopped.exitCode, withinGrace: stops[service] < 30 }).toEqual({
        service,
        exitCode: 0,
        withinGrace: true,
      });
    }
    recordFigures('compose-demo', { secondsToStopOnSigterm: stops });
  });
});
