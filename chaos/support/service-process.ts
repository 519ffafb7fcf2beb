import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@mm/testing';
import { track } from './child-registry.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Service output, one file per service and suite; ignored by git, kept for reading after a failure. */
export const LOG_DIR = `${REPO_ROOT}chaos/.logs`;

export interface ServiceSpec {
  /** Short name, for logs and messages. */
  name: string;
  /** Folder under services/ whose src/main.ts is started. */
  dir: string;
  env: Record<string, string>;
  /** Where it listens (the gateway's API, the bridge's callbacks). */
  url: string;
  /** Its internal port, where /ready and /metrics are (the same as `url` for workers, which serve nothing else). */
  internalUrl: string;
  /** Answers 200 once the service has started (its workers are ready before its internal server). */
  readyUrl: string;
  /** Log file, appended to across restarts. */
  logFile: string;
  /** Extra options of node itself (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
}

/**
 * One service as its own operating-system process, started exactly as `pnpm start` starts it. The
 * chaos suite kills it with SIGKILL (no shutdown code runs) and starts it again with the same
 * environment and ports.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<NodeJS.Signals | number | null> = Promise.resolve(null);
  private log: WriteStream | null = null;
  /** How many times it was started. */
  starts = 0;

  constructor(readonly spec: ServiceSpec) {}

  /** The operating-system process id while it runs. */
  get pid(): number | undefined {
    return this.running ? this.child!.pid : undefined;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    if (this.running) return;
    mkdirSync(LOG_DIR, { recursive: true });
    // A new file for each run of the suite, appended to across restarts within it.
    this.log ??= createWriteStream(this.spec.logFile, { flags: this.starts === 0 ? 'w' : 'a' });
    this.log.write(`\n===== start ${++this.starts} of ${this.spec.name} at ${new Date().toISOString()} =====\n`);
    const child = track(
      spawn(
        process.execPath,
        [...(this.spec.nodeArgs ?? []), '--import', 'tsx', `services/${this.spec.dir}/src/main.ts`],
        {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...this.spec.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ),
    );
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    await waitFor(
      async () => {
        if (!this.running) throw new Error(`${this.spec.name} exited while starting (see ${this.spec.logFile})`);
        const res = await fetch(this.spec.readyUrl, { signal: AbortSignal.timeout(2000) }).catch(() => null);
        return res?.status === 200;
      },
      { what: `${this.spec.name} ready`, timeoutMs: 60_000, intervalMs: 100 },
    );
  }

  /** kill -9: no graceful shutdown, jobs in flight stay locked in Redis, requests in flight are cut. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  /** How the process ended: a signal name or an exit code (for a service that kills itself). */
  async exit(timeoutMs: number): Promise<NodeJS.Signals | number | null> {
    return Promise.race([
      this.exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${this.spec.name} still running after ${timeoutMs} ms`)), timeoutMs).unref(),
      ),
    ]);
  }

  /** SIGTERM (graceful shutdown), then SIGKILL if it has not exited in time. */
  async stop(timeoutMs = 15_000): Promise<NodeJS.Signals | number | null> {
    let result: NodeJS.Signals | number | null = null;
    if (this.running) {
      // A process a failed test left frozen (SIGSTOP) must run to handle its SIGTERM.
      this.child!.kill('SIGCONT');
      this.child!.kill('SIGTERM');
      result = await this.exit(timeoutMs).catch(async () => {
        this.child!.kill('SIGKILL');
        return this.exited;
      });
    }
    await new Promise<void>((resolve) => (this.log ? this.log.end(resolve) : resolve()));
    this.log = null;
    return result;
  }

  /** Freezes (SIGSTOP) or thaws (SIGCONT) the process: it holds its connections but answers nothing. */
  pause(paused: boolean): void {
    this.child?.kill(paused ? 'SIGSTOP' : 'SIGCONT');
  }
}
