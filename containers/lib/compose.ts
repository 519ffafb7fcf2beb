/**
 * One Docker Compose project run by Debian's docker-compose 1.29 (the Compose file format as Docker
 * reads it) against podman's Docker API. The project's files are the repository's own, plus the
 * override naming the images built here (containers/compose/*.images.yml).
 */
import { randomBytes } from 'node:crypto';
import { parse } from 'yaml';
import { waitFor } from '@mm/testing';
import { podman, ROOT, run } from './podman.js';
import type { PodmanApi } from './podman-api.js';

export interface ContainerState {
  id: string;
  status: string;
  health: string | null;
  exitCode: number;
  startedAt: string;
  finishedAt: string;
  restartCount: number;
  pid: number;
  user: string;
}

/** Secrets as an operator generates them: `openssl rand -hex 32` and the like. */
export function generatedSecrets(): Record<string, string> {
  const hex = (n: number) => randomBytes(n).toString('hex');
  return {
    MASTER_KEY: hex(32),
    SESSION_SECRET: hex(32),
    OPERATOR_API_TOKEN: hex(16),
    OPERATOR_CALLBACK_SECRET: hex(16),
    SIM_SANDBOX_TOKEN: hex(16),
    POSTGRES_PASSWORD: hex(12),
  };
}

/** The demo's variables (docker-compose.yml's header): development, sandbox, webhooks to the private inbox. */
export const DEMO_VARIABLES = {
  MM_NODE_ENV: 'development',
  MM_DEPLOYMENT_MODE: 'sandbox',
  MM_WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

export class ComposeProject {
  readonly files: string[];

  constructor(
    readonly api: PodmanApi,
    readonly name: string,
    overlays: string[],
    public variables: Record<string, string>,
    public profiles: string[] = [],
  ) {
    this.files = ['docker-compose.yml', 'containers/compose/images.yml'];
    for (const overlay of overlays)
      this.files.push(`infra/compose/${overlay}.yml`, `containers/compose/${overlay}.images.yml`);
  }

  /**
   * `docker-compose <args>` in the repository's root, with only the project's variables (no stray
   * MASTER_KEY from the shell) and `extra` under them.
   */
  compose(args: string[], extra: Record<string, string> = {}): Promise<string> {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DOCKER_HOST: this.api.dockerHost,
      COMPOSE_PROJECT_NAME: this.name,
      ...extra,
      ...this.variables,
    };
    const global = [...this.files.flatMap((f) => ['-f', f]), ...this.profiles.flatMap((p) => ['--profile', p])];
    return run('docker-compose', [...global, ...args], { cwd: ROOT, env });
  }

  up(): Promise<string> {
    return this.compose(['up', '-d', '--no-build']);
  }

  /** Removes the containers and the network; the volumes too unless `keepVolumes`. */
  down(keepVolumes = false): Promise<string> {
    // Compose interpolates the whole file even to remove it: placeholders where a secret is not set.
    const placeholders = {
      MASTER_KEY: 'unset',
      SESSION_SECRET: 'unset',
      OPERATOR_API_TOKEN: 'unset',
      OPERATOR_CALLBACK_SECRET: 'unset',
    };
    const down = () =>
      this.compose(
        ['down', '--remove-orphans', '--timeout', '30', ...(keepVolumes ? [] : ['--volumes'])],
        placeholders,
      );
    // A service its restart policy is starting again as Compose stops it can fail a `down` (the workers
    // refusing published secrets in a loop): its container comes back and holds the network. Seen to fail
    // twice in a row on a loaded machine, so `down` is tried again until a deadline, not a fixed number of times.
    return waitFor(async () => ({ output: await down() }), {
      timeoutMs: 60_000,
      intervalMs: 1000,
      what: `${this.name}: docker-compose down`,
    }).then((r) => r.output);
  }

  /**
   * Each service's container (Compose's own labels; `run` one-offs left out), in two podman calls
   * whatever the number of services: asking docker-compose per service costs a Python start each.
   */
  async states(): Promise<Map<string, ContainerState>> {
    const ids = (
      await podman(['ps', '-a', '-q', '--no-trunc', '--filter', `label=com.docker.compose.project=${this.name}`])
    )
      .split('\n')
      .filter(Boolean);
    const states = new Map<string, ContainerState>();
    if (!ids.length) return states;
    const containers = JSON.parse(await podman(['inspect', ...ids])) as Array<{
      Id: string;
      RestartCount?: number;
      Config: { User?: string; Labels?: Record<string, string> | null };
      State: {
        Status: string;
        ExitCode: number;
        StartedAt: string;
        FinishedAt: string;
        Pid: number;
        Health?: { Status?: string };
      };
    }>;
    for (const c of containers) {
      const labels = c.Config.Labels ?? {};
      const service = labels['com.docker.compose.service'];
      if (!service || labels['com.docker.compose.oneoff'] === 'True') continue;
      states.set(service, {
        id: c.Id,
        status: c.State.Status,
        health: c.State.Health?.Status || null,
        exitCode: c.State.ExitCode,
        startedAt: c.State.StartedAt,
        finishedAt: c.State.FinishedAt,
        restartCount: c.RestartCount ?? 0,
        pid: c.State.Pid,
        user: c.Config.User ?? '',
      });
    }
    return states;
  }

  async state(service: string): Promise<ContainerState> {
    const state = (await this.states()).get(service);
    if (!state) throw new Error(`${this.name}: no container for ${service}`);
    return state;
  }

  async containerId(service: string): Promise<string> {
    return (await this.state(service)).id;
  }

  /** A command in a service's container, as its user (`docker compose exec -T`): its output. */
  async exec(service: string, argv: string[]): Promise<string> {
    return podman(['exec', await this.containerId(service), ...argv]);
  }

  /** The services this project runs: those of its files, but a profile's when the profile is not on. */
  async services(): Promise<string[]> {
    const config = parse(await this.compose(['config'])) as { services: Record<string, { profiles?: string[] }> };
    return Object.entries(config.services)
      .filter(([, s]) => !s.profiles || s.profiles.some((p) => this.profiles.includes(p)))
      .map(([name]) => name);
  }

  /** Every container's last lines, for a failure's message. */
  async logs(lines = 40): Promise<string> {
    return this.compose(['logs', '--no-color', '--tail', String(lines)]).catch((err: Error) => err.message);
  }
}

/** The demo stack's one-shots (they exit 0 when done) and its long-running services (each with a healthcheck). */
export const ONE_SHOT_SERVICES = new Set(['migrate', 'demo-seed', 'redis-cluster-create']);

/** Waits until every long-running service of the project is healthy and every one-shot has exited 0. */
export async function waitHealthy(project: ComposeProject, timeoutMs = 180_000): Promise<Map<string, ContainerState>> {
  const services = await project.services();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await project.states();
    const pending = services.filter((service) => {
      const s = states.get(service);
      return (
        !s || (ONE_SHOT_SERVICES.has(service) ? !(s.status === 'exited' && s.exitCode === 0) : s.health !== 'healthy')
      );
    });
    const failed = [...states].filter(
      ([service, s]) => ONE_SHOT_SERVICES.has(service) && s.status === 'exited' && s.exitCode !== 0,
    );
    if (failed.length)
      throw new Error(
        `${project.name}: ${failed.map(([s, st]) => `${s} exited ${st.exitCode}`).join(', ')}\n${await project.logs()}`,
      );
    if (!pending.length) return states;
    if (Date.now() > deadline) {
      const seen = (service: string) =>
        `${service} ${states.get(service)?.status ?? 'not created'}/${states.get(service)?.health ?? '-'}`;
      throw new Error(
        `${project.name}: not healthy after ${timeoutMs / 1000} s: ${pending.map(seen).join(', ')}\n${await project.logs()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
