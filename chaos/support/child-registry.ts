import type { ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();
let hooked = false;

/**
 * Every process the suite spawns is killed when the test process exits, whatever happened before
 * (a beforeAll that timed out, a failed start): a run never leaves a service or a Redis server behind.
 */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const c of children) c.kill('SIGKILL');
    });
  }
  return child;
}
