/**
 * infra/k8s (the base) and infra/k8s-sandbox, rendered by `kubectl kustomize` and played by
 * `podman kube play` with the images built here: the migrate Job completes, every Deployment's pod
 * answers its readiness endpoint, and on the sandbox a merchant created with the admin CLI (as
 * infra/README.md says, inside the back-office pod) carries a cash-in to SUCCESS through the simulator.
 * What podman does not play (Services, HPAs, PDBs, the Namespace...) is listed by the test and in
 * infra/README.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { signedClient, waitFor } from '@mm/testing';
import { recordFigures } from './lib/figures.js';
import { ENGINE_PORTS, KubePlay, removeLeftovers, render, unplayedKinds } from './lib/kube-play.js';
import { waitForStatus } from './lib/merchant-flow.js';
import { podman } from './lib/podman.js';

/** Each Deployment's readiness endpoint (the port its readinessProbe names), on the host's network. */
const READY: Record<string, string> = {
  gateway: 'http://127.0.0.1:3100/ready', backoffice: 'http://127.0.0.1:3101/ready', 'operator-bridge': 'http://127.0.0.1:3102/ready',
  'webhook-dispatcher': 'http://127.0.0.1:3005/ready', 'expiry-worker': 'http://127.0.0.1:3006/ready', 'refund-worker': 'http://127.0.0.1:3007/ready',
  'operator-simulator': 'http://127.0.0.1:3003/health',
};

async function containerExit(name: string): Promise<{ status: string; exitCode: number }> {
  const [c] = JSON.parse(await podman(['inspect', name])) as [{ State: { Status: string; ExitCode: number } }];
  return { status: c.State.Status, exitCode: c.State.ExitCode };
}

async function playAll(kustomization: string, label: string) {
  const manifests = await render(kustomization);
  const play = new KubePlay('mmkube');
  await removeLeftovers('mmkube', manifests);
  const password = randomBytes(12).toString('hex');
  const secrets = {
    DATABASE_URL: `postgresql://postgres:${password}@postgres:${ENGINE_PORTS.postgres}/mobilemoney`,
    MASTER_KEY: randomBytes(32).toString('hex'), SESSION_SECRET: randomBytes(32).toString('hex'),
    OPERATOR_API_TOKEN: randomBytes(16).toString('hex'), OPERATOR_CALLBACK_SECRET: randomBytes(16).toString('hex'), SIM_SANDBOX_TOKEN: randomBytes(16).toString('hex'),
  };
  const started = Date.now();
  await play.startEngines(password);
  await play.createSecret(secrets);
  const configMaps = manifests.filter((m) => m.kind === 'ConfigMap');
  const job = manifests.find((m) => m.kind === 'Job')!;
  await play.play(`${label}-migrate`, [...configMaps, job]);
  const migrate = KubePlay.container(job.metadata.name, 'migrate', 'Job');
  await waitFor(async () => (await containerExit(migrate)).status === 'exited', { what: 'the migrate Job', timeoutMs: 120_000, intervalMs: 500 });
  expect(await containerExit(migrate)).toEqual({ status: 'exited', exitCode: 0 });
  const deployments = manifests.filter((m) => m.kind === 'Deployment');
  await play.play(label, [...configMaps, ...deployments]);
  for (const d of deployments) {
    const url = READY[d.metadata.name]!;
    await waitFor(async () => (await fetch(url).catch(() => null))?.status === 200, { what: `${d.metadata.name} ready (${url})`, timeoutMs: 120_000, intervalMs: 500 });
  }
  recordFigures('kube-play', { [label]: { secondsToReady: (Date.now() - started) / 1000, notPlayed: unplayedKinds(manifests) } });
  return { play, manifests, deployments };
}

describe('podman kube play of the Kubernetes manifests', () => {
  let current: KubePlay | undefined;
  afterEach(async () => { await current?.close(); current = undefined; });

  it('the base (live, no simulator): the migrate Job completes and every Deployment is ready', async () => {
    const { play, manifests, deployments } = await playAll('containers/k8s/base', 'base');
    current = play;
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['backoffice', 'expiry-worker', 'gateway', 'operator-bridge', 'refund-worker', 'webhook-dispatcher']);
    expect(unplayedKinds(manifests)).toEqual(['HorizontalPodAutoscaler', 'Namespace', 'PodDisruptionBudget', 'Service']);
  });

  it('the sandbox overlay: a merchant made with the admin CLI in the back-office pod carries a cash-in to SUCCESS through the simulator', async () => {
    const { play, deployments } = await playAll('containers/k8s/sandbox', 'sandbox');
    current = play;
    expect(deployments.map((d) => d.metadata.name)).toContain('operator-simulator');
    const out = await podman(['exec', KubePlay.container('backoffice'), 'node', 'dist/admin-cli.mjs', 'merchant:create', '--name', 'Kube Shop', '--json']);
    const merchant = JSON.parse(out.trim().split('\n').at(-1)!) as { api_key: string; api_secret: string };
    const call = signedClient('http://127.0.0.1:3000/api/v1', merchant.api_key, merchant.api_secret);
    const created = await call('POST', '/payments/cashin', { merchant_order_id: `kube-${randomUUID()}`, amount: 5000, customer_msisdn: '+2250707000001' });
    expect(created.status).toBe(202);
    await waitForStatus(`/payments/${created.body.data.transaction_id}`, 'SUCCESS', { key: merchant.api_key, secret: merchant.api_secret });
  });
});
