import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** podman's settings for these checks (runc, no default ulimits): the machine's /etc/containers is not touched. */
export const PODMAN_ENV = { ...process.env, CONTAINERS_CONF: path.join(ROOT, 'containers/containers.conf') };

export class CommandFailed extends Error {
  constructor(
    readonly command: string,
    readonly code: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`${command}: exit ${code}\n${(stderr || stdout).slice(-4000)}`);
  }
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Runs a command to completion and returns its stdout; a non-zero exit throws CommandFailed with both outputs. */
export function run(command: string, args: string[], opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: opts.cwd ?? ROOT,
        env: opts.env ?? PODMAN_ENV,
        maxBuffer: 1 << 28,
        timeout: opts.timeoutMs ?? 600_000,
      },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new CommandFailed(
              `${command} ${args.join(' ')}`,
              typeof err.code === 'number' ? err.code : null,
              stdout,
              stderr,
            ),
          );
        else resolve(stdout);
      },
    );
  });
}

export const podman = (args: string[], opts: RunOptions = {}) => run('podman', args, opts);

/** Starts a long-running command (podman's API service); its output goes to the returned buffer. */
export function startProcess(command: string, args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { cwd: ROOT, env: PODMAN_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // jest's forceExit after a failed suite must not leave podman's API service running.
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stop);
  child.once('exit', () => process.off('exit', stop));
  return { child, output: () => output };
}

export async function imageExists(ref: string): Promise<boolean> {
  return podman(['image', 'exists', ref]).then(
    () => true,
    () => false,
  );
}

export interface ImageFacts {
  id: string;
  size: number;
  user: string;
  labels: Record<string, string>;
  healthcheck: string[] | null;
  cmd: string[];
  stopSignal: string;
}

export async function inspectImage(ref: string): Promise<ImageFacts> {
  const [image] = JSON.parse(await podman(['image', 'inspect', ref])) as [
    {
      Id: string;
      Size: number;
      Labels: Record<string, string> | null;
      Healthcheck?: { Test?: string[] };
      Config: { User?: string; Cmd?: string[]; StopSignal?: string; Labels?: Record<string, string> | null };
    },
  ];
  return {
    id: image.Id,
    size: image.Size,
    user: image.Config.User ?? '',
    labels: image.Labels ?? image.Config.Labels ?? {},
    healthcheck: image.Healthcheck?.Test ?? null,
    cmd: image.Config.Cmd ?? [],
    stopSignal: image.Config.StopSignal ?? '',
  };
}

export interface BuiltImage {
  name: string;
  ref: string;
  seconds: number;
  sizeMb: number;
  /** The build made no new image: podman's layer cache held every step. */
  cached: boolean;
}

/**
 * `podman build` of one image, timed and measured. Docker's format: the OCI format has no HEALTHCHECK,
 * which podman would drop.
 */
export async function buildImage(name: string, ref: string, args: string[]): Promise<BuiltImage> {
  const started = Date.now();
  const before = await inspectImage(ref).then(
    (i) => i.id,
    () => null,
  );
  await podman(['build', '--format', 'docker', ...args, '-t', ref], { timeoutMs: 900_000 });
  const image = await inspectImage(ref);
  return {
    name,
    ref,
    seconds: (Date.now() - started) / 1000,
    sizeMb: Math.round(image.size / 1e6),
    cached: image.id === before,
  };
}
