/**
 * One Docker Compose project run by Debian's docker-compose 1.29 (the Compose file format as Docker
 * reads it) against podman's Docker API. The project's files are the repository's own, plus the
 * override naming the images built here (containers/compose/*.images.yml).
 */
import { randomBytes } from 'node:crypto';
import { parse } from 'yaml';
import { podman, ROOT, run } from './podman.js';
import type { PodmanApi } from './podman-api.js';

interface Health { Status?: string }

export interface ContainerState {
  id: string;
  name: string;
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
    MASTER_KEY: hex(32), SESSION_SECRET: hex(32), OPERATOR_API_TOKEN: hex(16), OPERATOR_CALLBACK_SECRET: hex(16),
    SIM_SANDBOX_TOKEN: hex(16), POSTGRES_PASSWORD: hex(12),
  };
}

/** The demo's variables (docker-compose.yml's header): development, sandbox, webhooks to the private inbox. */
export const DEMO_VARIABLES = { MM_NODE_ENV: 'development', MM_DEPLOYMENT_MODE: 'sandbox', MM_WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };

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
    for (const overlay of overlays) this.files.push(`infra/compose/${overlay}.yml`, `containers/compose/${overlay}.images.yml`);
  }

  /** `docker-compose <args>` in the repository's root, with only the variables given (no stray MASTER_KEY from the shell). */
  compose(args: string[], timeoutMs = 600_000): Promise<string> {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DOCKER_HOST: this.api.dockerHost, COMPOSE_PROJECT_NAME: this.name, ...this.variables };
    const global = [...this.files.flatMap((f) => ['-f', f]), ...this.profiles.flatMap((p) => ['--profile', p])];
    return run('docker-compose', [...global, ...args], { cwd: ROOT, env, timeoutMs });
  }

  up(services: string[] = []): Promise<string> {
    return this.compose(['up', '-d', '--no-build', ...services]);
  }

  /** Removes the containers and the network; the volumes too unless `keepVolumes`. */
  down(keepVolumes = false): Promise<string> {
    const saved = this.variables;
    // Compose interpolates the whole file even to remove it: placeholders where a secret is not set.
    this.variables = { MASTER_KEY: 'unset', SESSION_SECRET: 'unset', OPERATOR_API_TOKEN: 'unset', OPERATOR_CALLBACK_SECRET: 'unset', ...saved };
    return this.compose(['down', '--remove-orphans', '--timeout', '30', ...(keepVolumes ? [] : ['--volumes'])]).finally(() => { this.variables = saved; });
  }

  async containerId(service: string): Promise<string> {
    const [id] = (await this.compose(['ps', '-q', '--all', service])).trim().split('\n');
    if (!id) throw new Error(`${this.name}: no container for ${service}`);
    return id;
  }

  async state(service: string): Promise<ContainerState> {
    const [c] = JSON.parse(await podman(['inspect', await this.containerId(service)])) as [{
      Id: string; Name: string; RestartCount?: number; Config: { User?: string };
      State: { Status: string; ExitCode: number; StartedAt: string; FinishedAt: string; Pid: number; Health?: Health; Healthcheck?: Health };
    }];
    return {
      id: c.Id, name: c.Name, status: c.State.Status, health: c.State.Health?.Status || c.State.Healthcheck?.Status || null,
      exitCode: c.State.ExitCode, startedAt: c.State.StartedAt, finishedAt: c.State.FinishedAt, restartCount: c.RestartCount ?? 0,
      pid: c.State.Pid, user: c.Config.User ?? '',
    };
  }

  /** The services this project runs: those of its files, but a profile's when the profile is not on. */
  async services(): Promise<string[]> {
    const config = parse(await this.compose(['config'])) as { services: Record<string, { profiles?: string[] }> };
    return Object.entries(config.services).filter(([, s]) => !s.profiles || s.profiles.some((p) => this.profiles.includes(p))).map(([name]) => name);
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
    const states = new Map<string, ContainerState>();
    for (const service of services) states.set(service, await project.state(service));
    const pending = [...states].filter(([service, s]) => (ONE_SHOT_SERVICES.has(service) ? !(s.status === 'exited' && s.exitCode === 0) : s.health !== 'healthy'));
    const failed = [...states].filter(([service, s]) => ONE_SHOT_SERVICES.has(service) && s.status === 'exited' && s.exitCode !== 0);
    if (failed.length) throw new Error(`${project.name}: ${failed.map(([s, st]) => `${s} exited ${st.exitCode}`).join(', ')}\n${await project.logs()}`);
    if (!pending.length) return states;
    if (Date.now() > deadline) {
      throw new Error(`${project.name}: not healthy after ${timeoutMs / 1000} s: ${pending.map(([s, st]) => `${s} ${st.status}/${st.health}`).join(', ')}\n${await project.logs()}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
