/** A server a test started (PostgreSQL, PgBouncer, Redis): what is left to do if the run ends with it up. */
export interface Engine {
  /** kill -9 and delete what it wrote, synchronously (it runs at exit). */
  killSync(): void;
}

const live = new Set<Engine>();
let hooked = false;

/**
 * Engines are started outside the run's process group (so that a test can kill them), so nothing else
 * stops them: registered here, each is killed and cleaned when the run exits, or is interrupted, with it
 * still up. A run never leaves a server behind.
 */
export function registerEngine(engine: Engine): void {
  live.add(engine);
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const e of live) e.killSync();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const e of live) e.killSync();
      // The default action, unless someone else handles the signal.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/** Stopped by its owner: nothing left to do at exit. */
export function unregisterEngine(engine: Engine): void {
  live.delete(engine);
}
