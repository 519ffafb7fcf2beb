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
import { containerOf, KubePlay, podOf, unplayedKinds } from './lib/kube-play.js';
import { podman } from './lib/podman.js';

/** Each Deployment's readiness endpoint (the port and path of its readinessProbe). */
const READY: Record<string, string> = {
  gateway: ':3100/ready',
  backoffice: ':3101/ready',
  'merchant-portal': ':3108/ready',
  'operator-bridge': ':3102/ready',
  'webhook-dispatcher': ':3005/ready',
  'expiry-worker': ':3006/ready',
  'refund-worker': ':3007/ready',
  'operator-simulator': ':3003/health',
};

async function containerExit(name: string): Promise<{ status: string; exitCode: number }> {
  const [c] = JSON.parse(await podman(['inspect', name])) as [{ State: { Status: string; ExitCode: number } }];
  return { status: c.State.Status, exitCode: c.State.ExitCode };
}

/** Engines, Secret, the migrate Job's pod to exit 0, then every Deployment to answer its readiness endpoint. */
async function playAll(play: KubePlay, label: string) {
  const password = randomBytes(12).toString('hex');
  const secrets = {
    DATABASE_URL: `postgresql://postgres:${password}@postgres:5432/mobilemoney`,
    MASTER_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    OPERATOR_API_TOKEN: randomBytes(16).toString('hex'),
    OPERATOR_CALLBACK_SECRET: randomBytes(16).toString('hex'),
    SIM_SANDBOX_TOKEN: randomBytes(16).toString('hex'),
  };
  const started = Date.now();
  await play.startEngines(password);
  await play.createSecret(secrets);
  const [job] = play.of('Job');
  await play.play(`${label}-migrate`, [job!]);
  const migrate = containerOf(job!, 'migrate');
  await waitFor(async () => (await containerExit(migrate)).status === 'exited', {
    what: 'the migrate Job',
    timeoutMs: 120_000,
    intervalMs: 500,
  });
  expect(await containerExit(migrate)).toEqual({ status: 'exited', exitCode: 0 });
  const deployments = play.of('Deployment');
  await play.play(label, deployments);
  const addresses = new Map<string, string>();
  for (const d of deployments) {
    const address = await KubePlay.address(podOf(d));
    addresses.set(d.metadata.name, address);
    const url = `http://${address}${READY[d.metadata.name]}`;
    await waitFor(async () => (await fetch(url).catch(() => null))?.status === 200, {
      what: `${d.metadata.name} ready (${url})`,
      timeoutMs: 120_000,
      intervalMs: 500,
    });
  }
  recordFigures('kube-play', {
    [label]: { secondsToReady: (Date.now() - started) / 1000, notPlayed: unplayedKinds(play.manifests) },
  });
  return { deployments, addresses };
}

describe('podman kube play of the Kubernetes manifests', () => {
  let current: KubePlay | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  it('the base (live, no simulator): the migrate Job completes and every Deployment is ready', async () => {
    current = await KubePlay.open('containers/k8s/base');
    const { deployments } = await playAll(current, 'base');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([
      'backoffice',
      'expiry-worker',
      'gateway',
      'merchant-portal',
      'operator-bridge',
      'refund-worker',
      'webhook-dispatcher',
    ]);
    expect(unplayedKinds(current.manifests)).toEqual([
      'HorizontalPodAutoscaler',
      'Namespace',
      'PodDisruptionBudget',
      'Service',
    ]);
  });

  it('the sandbox overlay: a merchant made with the admin CLI in the back-office pod carries a cash-in to SUCCESS through the simulator', async () => {
    current = await KubePlay.open('containers/k8s/sandbox');
    const { deployments, addresses } = await playAll(current, 'sandbox');
    expect(deployments.map((d) => d.metadata.name)).toContain('operator-simulator');
    const out = await podman([
      'exec',
      containerOf(deployments.find((d) => d.metadata.name === 'backoffice')!),
      'node',
      'dist/admin-cli.mjs',
      'merchant:create',
      '--name',
      'Kube Shop',
      '--json',
    ]);
    const merchant = JSON.parse(out.trim().split('\n').at(-1)!) as { api_key: string; api_secret: string };
    const gateway = `http://${addresses.get('gateway')}:3000/api/v1`;
    const call = signedClient(gateway, merchant.api_key, merchant.api_secret);
    const created = await call('POST', '/payments/cashin', {
      merchant_order_id: `kube-${randomUUID()}`,
      amount: 5000,
      customer_msisdn: '+2250707000001',
    });
    if (created.status !== 202) throw new Error(`cash-in answered ${created.status} ${created.text}`);
    await waitFor(
      async () => (await call('GET', `/payments/${created.body.data.transaction_id}`)).body?.data?.status === 'SUCCESS',
      { what: 'the cash-in to be SUCCESS', timeoutMs: 60_000, intervalMs: 500 },
    );
  });
});
