import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { osUserPostgres, registerEngine, unregisterEngine, waitFor, type Engine } from '@mm/testing';

export interface ScriptEngineOptions {
  /** `sh` or `bash`: the interpreter the deployment runs the script with. */
  shell: 'sh' | 'bash';
  script: string;
  args?: string[];
  /** The script's whole environment (PATH included). */
  env: Record<string, string>;
  /** Run as the OS user postgres when this process is root (PostgreSQL and PgBouncer refuse root). */
  asPostgres?: boolean;
  /** Until it serves. */
  ready: () => Promise<boolean>;
  what: string;
  /** What shuts it down cleanly (PostgreSQL: SIGINT, a fast shutdown). */
  stopSignal?: NodeJS.Signals;
}

/**
 * A server started by a deployment's own start script, which ends by exec-ing it, run on this machine in
 * a temporary directory of its own (`dir`, handed to `env` by the caller through `start`'s callback):
 * registered as a test engine (killed and its directory removed if the run ends with it up).
 */
export class ScriptEngine implements Engine {
  private output = '';

  private constructor(
    readonly dir: string,
    private readonly child: ChildProcess,
    private readonly stopSignal: NodeJS.Signals,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
  }

  /** A new directory (owned by postgres when `asPostgres`), then the script with `options(dir)`. */
  static async start(options: (dir: string) => ScriptEngineOptions, existingDir?: string): Promise<ScriptEngine> {
    const owner = osUserPostgres();
    const dir = existingDir ?? mkdtempSync(path.join(tmpdir(), 'mm-script-engine-'));
    const o = options(dir);
    const asPostgres = o.asPostgres && owner ? owner : null;
    if (asPostgres) chownSync(dir, asPostgres.uid, asPostgres.gid);
    const child = spawn(o.shell, [o.script, ...(o.args ?? [])], {
      env: o.env,
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asPostgres ?? {}),
    });
    const engine = new ScriptEngine(dir, child, o.stopSignal ?? 'SIGTERM');
    registerEngine(engine);
    try {
      await waitFor(
        async () => {
          if (!engine.running) throw new Error(`${o.what} exited: ${engine.output.trim()}`);
          return (await o.ready()) || undefined;
        },
        { what: o.what, timeoutMs: 60_000, intervalMs: 100 },
      );
    } catch (err) {
      await engine.stop();
      throw err;
    }
    return engine;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Shut down; its directory is kept with `keepDir` (a restart on the same data). */
  async stop(o: { keepDir?: boolean } = {}): Promise<void> {
    unregisterEngine(this);
    if (this.running) {
      const gone = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill(this.stopSignal);
      await gone;
    }
    if (!o.keepDir) rmSync(this.dir, { recursive: true, force: true });
  }

  killSync(): void {
    if (this.running) this.child.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
