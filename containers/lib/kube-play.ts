/**
 * The Kubernetes manifests as `podman kube play` runs them: rendered by `kubectl kustomize` (through
 * containers/k8s/, which adds only what one host needs), split into what podman plays and what it
 * does not, with the referenced Secret created the way podman 4.3 reads one, and PostgreSQL and Redis
 * (outside the manifests, as on a real cluster) run from the local images on their own ports.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { waitFor } from '@mm/testing';
import { POSTGRES_IMAGE, REDIS_IMAGE } from './base-images.js';
import { podman, run } from './podman.js';

interface Manifest { kind: string; metadata: { name: string }; spec?: { template?: { spec: unknown } } }

/** Kinds podman 4.3 plays here. A Job is played as a Pod of its template (podman 4.3 has no Job). */
export const PLAYED = new Set(['ConfigMap', 'Deployment', 'Job']);

/** The podman network every pod and both engines join (DNS: a pod by its name, the engines by their alias). */
export const NETWORK = 'mmkube';

export async function render(kustomization: string): Promise<Manifest[]> {
  const text = await run('kubectl', ['kustomize', kustomization], { env: process.env });
  return parseAllDocuments(text).map((d) => d.toJS() as Manifest).filter(Boolean);
}

export function unplayedKinds(manifests: Manifest[]): string[] {
  return [...new Set(manifests.filter((m) => !PLAYED.has(m.kind)).map((m) => m.kind))].sort();
}

const asPod = (job: Manifest) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: job.metadata.name }, spec: job.spec!.template!.spec });

export class KubePlay {
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'mm-kube-play-'));
  private readonly played: string[] = [];
  private readonly emptyDirs = new Set<string>();

  constructor(readonly name: string) {}

  /** The network, and the engines the Secret (`postgres`) and the ConfigMap (`redis`) name. */
  async startEngines(password: string): Promise<void> {
    await podman(['network', 'create', NETWORK]);
    await podman(['run', '-d', '--name', `${this.name}-postgres`, '--network', NETWORK, '--network-alias', 'postgres', '-e', `POSTGRES_PASSWORD=${password}`, '-e', 'POSTGRES_DB=mobilemoney', POSTGRES_IMAGE]);
    await podman(['run', '-d', '--name', `${this.name}-redis`, '--network', NETWORK, '--network-alias', 'redis', REDIS_IMAGE, 'redis-server', '--maxmemory-policy', 'noeviction']);
    await waitFor(() => podman(['exec', `${this.name}-postgres`, 'pg_isready', '-h', '127.0.0.1']).then(() => true, () => false),
      { what: 'the PostgreSQL of the play', timeoutMs: 60_000, intervalMs: 500 });
  }

  /** A pod's address on the network (this host reaches it directly: rootful bridge). */
  static async address(pod: string): Promise<string> {
    // podman 4.3 answers one object for one pod (later versions, an array).
    const parsed = JSON.parse(await podman(['pod', 'inspect', pod])) as { InfraContainerID: string } | [{ InfraContainerID: string }];
    const info = Array.isArray(parsed) ? parsed[0] : parsed;
    return (await podman(['inspect', '-f', `{{(index .NetworkSettings.Networks "${NETWORK}").IPAddress}}`, info.InfraContainerID])).trim();
  }

  /** `mm-secrets` as podman 4.3's secretKeyRef reads it: a JSON object of base64 values. */
  async createSecret(values: Record<string, string>): Promise<void> {
    const file = path.join(this.dir, 'mm-secrets.json');
    writeFileSync(file, JSON.stringify(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString('base64')]))), { mode: 0o600 });
    await podman(['secret', 'create', 'mm-secrets', file]);
    rmSync(file);
  }

  /** Plays these manifests (the ConfigMaps go with them: envFrom is resolved within one play). */
  async play(label: string, manifests: Manifest[]): Promise<void> {
    for (const m of manifests) {
      const volumes = (m.spec?.template?.spec as { volumes?: Array<{ name: string; emptyDir?: unknown }> } | undefined)?.volumes ?? [];
      for (const v of volumes) if (v.emptyDir !== undefined) this.emptyDirs.add(v.name);
    }
    const file = path.join(this.dir, `${label}.yaml`);
    writeFileSync(file, manifests.map((m) => stringify(m.kind === 'Job' ? asPod(m) : m)).join('---\n'));
    this.played.push(file);
    await podman(['kube', 'play', '--network', NETWORK, file], { timeoutMs: 300_000 });
  }

  /** The container podman made for a Deployment's (or a Job's) container. */
  static container(workload: string, container = workload, kind = 'Deployment'): string {
    return kind === 'Job' ? `${workload}-${container}` : `${workload}-pod-0-${container}`;
  }

  async close(): Promise<void> {
    for (const file of this.played.reverse()) await podman(['kube', 'down', file]).catch(() => undefined);
    await podman(['rm', '-f', '-v', '-t', '10', `${this.name}-postgres`, `${this.name}-redis`]).catch(() => undefined);
    // The pods' emptyDir volumes: podman 4.3 makes each a named volume (one `tmp` shared by every pod that names it).
    for (const volume of this.emptyDirs) await podman(['volume', 'rm', '-f', volume]).catch(() => undefined);
    await podman(['secret', 'rm', 'mm-secrets']).catch(() => undefined);
    await podman(['network', 'rm', '-f', NETWORK]).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Pods a play of these manifests makes (`<deployment>-pod-0`, and a Job's pod under its own name). */
export function podNames(manifests: Manifest[]): string[] {
  return manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job').map((m) => (m.kind === 'Job' ? m.metadata.name : `${m.metadata.name}-pod-0`));
}

/** What a failed run may have left: its pods, engines and Secret. */
export async function removeLeftovers(name: string, manifests: Manifest[]): Promise<void> {
  for (const pod of podNames(manifests)) await podman(['pod', 'rm', '-f', pod]).catch(() => undefined);
  await podman(['rm', '-f', '-v', '-t', '0', `${name}-postgres`, `${name}-redis`]).catch(() => undefined);
  await podman(['secret', 'rm', 'mm-secrets']).catch(() => undefined);
  await podman(['network', 'rm', '-f', NETWORK]).catch(() => undefined);
}
