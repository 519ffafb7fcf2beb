import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load-job.js';
import { machineTicks, stolenPercent } from './cpu.js';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
/** Every process started here, killed if the bench exits before stopping them (a failed phase). */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

function node(script: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: BENCH_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Runs one load in its own process (load.ts) and returns what autocannon measured. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  const ticks = machineTicks();
  const child = node('load.ts');
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stdin.end(JSON.stringify(job));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0)
        resolve({ ...(JSON.parse(last) as LoadResult), stolenPercent: stolenPercent(ticks, machineTicks()) });
      else reject(new Error(`load process exited ${code}: ${out}`));
    });
  });
}

export interface BenchServer {
  url: string;
  /** Its operating-system process, for the CPU accounting. */
  pid: number;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
}

/**
 * A server of the bench that prints its URL on stdout (ceiling-server.ts, framework-floor-server.ts,
 * flow-ceiling/service.ts and operator.ts, paths from bench/) on a free port, in its own process.
 */
export async function startServer(script: string, env: Record<string, string>): Promise<BenchServer> {
  const child = node(script, env);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited ${code} while starting`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
