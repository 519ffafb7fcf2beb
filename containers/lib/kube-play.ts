/**
 * The Kubernetes manifests as `podman kube play` runs them: rendered by `kubectl kustomize` (through
 * containers/k8s/, which adds only what one host needs), split into what podman plays and what it
 * does not, with the referenced Secret created the way podman 4.3 reads one, and PostgreSQL and Redis
 * (outside the manifests, as on a real cluster) run from the local images on the pods' network.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { waitFor } from '@mm/testing';
import { POSTGRES_IMAGE, REDIS_IMAGE } from './base-images.js';
import { podman, run } from './podman.js';

export interface Manifest {
  kind: string;
  metadata: { name: string };
  spec?: { template?: { spec: PodSpec } };
}
interface PodSpec {
  volumes?: Array<{ name: string; emptyDir?: unknown }>;
}

/** Kinds podman 4.3 plays here. A Job is played as a Pod of its template (podman 4.3 has no Job). */
export const PLAYED = new Set(['ConfigMap', 'Deployment', 'Job']);

/** The podman network every pod and both engines join (DNS: a pod by its name, the engines by their alias). */
export const NETWORK = 'mmkube';
const ENGINES = [`${NETWORK}-postgres`, `${NETWORK}-redis`];

export function unplayedKinds(manifests: Manifest[]): string[] {
  return [...new Set(manifests.filter((m) => !PLAYED.has(m.kind)).map((m) => m.kind))].sort();
}

/** The pod podman makes for a workload: `<deployment>-pod-0`, a Job's (played as a Pod) under its own name. */
export const podOf = (m: Manifest) => (m.kind === 'Job' ? m.metadata.name : `${m.metadata.name}-pod-0`);

/** The container podman makes in that pod for one of the workload's containers (by default, the one named like it). */
export const containerOf = (m: Manifest, container = m.metadata.name) => `${podOf(m)}-${container}`;

const asPod = (job: Manifest) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: job.metadata.name },
  spec: job.spec!.template!.spec,
});

export class KubePlay {
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'mm-kube-play-'));
  private readonly played: string[] = [];

  private constructor(readonly manifests: Manifest[]) {}

  /** Renders a kustomization, and removes what an earlier run of it may have left. */
  static async open(kustomization: string): Promise<KubePlay> {
    const text = await run('kubectl', ['kustomize', kustomization], { env: process.env });
    const play = new KubePlay(
      parseAllDocuments(text)
        .map((d) => d.toJS() as Manifest)
        .filter(Boolean),
    );
    await play.remove();
    return play;
  }

  of(kind: string): Manifest[] {
    return this.manifests.filter((m) => m.kind === kind);
  }

  /** The network, and the engines the Secret (`postgres`) and the ConfigMap (`redis`) name. */
  async startEngines(password: string): Promise<void> {
    await podman(['network', 'create', NETWORK]);
    await podman([
      'run',
      '-d',
      '--name',
      ENGINES[0]!,
      '--network',
      NETWORK,
      '--network-alias',
      'postgres',
      '-e',
      `POSTGRES_PASSWORD=${password}`,
      '-e',
      'POSTGRES_DB=mobilemoney',
      POSTGRES_IMAGE,
    ]);
    await podman([
      'run',
      '-d',
      '--name',
      ENGINES[1]!,
      '--network',
      NETWORK,
      '--network-alias',
      'redis',
      REDIS_IMAGE,
      'redis-server',
      '--maxmemory-policy',
      'noeviction',
    ]);
    await waitFor(
      () =>
        podman(['exec', ENGINES[0]!, 'pg_isready', '-h', '127.0.0.1']).then(
          () => true,
          () => false,
        ),
      { what: 'the PostgreSQL of the play', timeoutMs: 60_000, intervalMs: 500 },
    );
  }

  /** `mm-secrets` as podman 4.3's secretKeyRef reads it: a JSON object of base64 values. */
  async createSecret(values: Record<string, string>): Promise<void> {
    const file = path.join(this.dir, 'mm-secrets.json');
    writeFileSync(
      file,
      JSON.stringify(
        Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
      ),
      { mode: 0o600 },
    );
    await podman(['secret', 'create', 'mm-secrets', file]);
    rmSync(file);
  }

  /** Plays these workloads with the ConfigMaps (envFrom is resolved within one play). */
  async play(label: string, workloads: Manifest[]): Promise<void> {
    const file = path.join(this.dir, `${label}.yaml`);
    writeFileSync(
      file,
      [...this.of('ConfigMap'), ...workloads].map((m) => stringify(m.kind === 'Job' ? asPod(m) : m)).join('---\n'),
    );
    this.played.push(file);
    await podman(['kube', 'play', '--network', NETWORK, file], { timeoutMs: 300_000 });
  }

  /** A pod's address on the network (this host reaches it directly: rootful bridge). */
  static async address(pod: string): Promise<string> {
    // podman 4.3 answers one object for one pod (later versions, an array).
    const parsed = JSON.parse(await podman(['pod', 'inspect', pod])) as
      { InfraContainerID: string } | [{ InfraContainerID: string }];
    const info = Array.isArray(parsed) ? parsed[0] : parsed;
    return (
      await podman([
        'inspect',
        '-f',
        `{{(index .NetworkSettings.Networks "${NETWORK}").IPAddress}}`,
        info.InfraContainerID,
      ])
    ).trim();
  }

  /**
   * Everything a play of these manifests makes, gone: the pods (what `podman kube down` removes), the
   * engines with their volumes, the emptyDir volumes (podman 4.3 makes each a named volume, one `tmp`
   * shared by every pod that names it), the Secret and the network. Each may be absent.
   */
  private async remove(): Promise<void> {
    const workloads = this.manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job');
    const emptyDirs = new Set(
      workloads.flatMap((m) =>
        (m.spec?.template?.spec.volumes ?? []).filter((v) => v.emptyDir !== undefined).map((v) => v.name),
      ),
    );
    const quietly = (args: string[]) => podman(args).catch(() => undefined);
    await quietly(['pod', 'rm', '-f', '--ignore', ...workloads.map(podOf)]);
    await quietly(['rm', '-f', '-v', '--ignore', '-t', '10', ...ENGINES]);
    for (const volume of emptyDirs) await quietly(['volume', 'rm', '-f', volume]);
    await quietly(['secret', 'rm', 'mm-secrets']);
    await quietly(['network', 'rm', '-f', NETWORK]);
  }

  async close(): Promise<void> {
    // `kube down` of what was played stops its pods in 1.5 s; `pod rm -f` of the same pods took 18 s.
    for (const file of this.played.reverse()) await podman(['kube', 'down', file]).catch(() => undefined);
    await this.remove();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
