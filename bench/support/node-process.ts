import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load-job.js';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

function node(script: string, env: Record<string, string> = {}) {
  return spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: BENCH_DIR, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['pipe', 'pipe', 'inherit'],
  });
}

/** Runs one load in its own process (load.ts) and returns what autocannon measured. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  const child = node('load.ts');
  let out = '';
  child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
  child.stdin.end(JSON.stringify(job));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(last) as LoadResult);
      else reject(new Error(`load process exited ${code}: ${out}`));
    });
  });
}

/** A server that prints its URL on stdout (ceiling-server.ts, framework-floor-server.ts) on a free port; stop() ends it. */
export async function startCeilingServer(databaseUrl: string, script = 'ceiling-server.ts'): Promise<{ url: string; stop(): Promise<void> }> {
  const child = node(script, { DATABASE_URL: databaseUrl });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited ${code} while starting`)));
  });
  return { url, async stop() { child.kill('SIGTERM'); await exited; } };
}
