import { waitFor } from '@mm/testing';
import type { ChaosSystem, ServiceName } from './chaos-system.js';

/**
 * kill -9 of a service while it holds jobs (`active` lists the ids of its queue's active jobs): those
 * stay active after the kill, locked by a worker that no longer exists. Some jobs take milliseconds (an
 * expiry check of a cash-in already decided), so the ones it held may all finish between the look and
 * the kill: then it is started again and killed again, up to 3 times. Returns the ids cut in flight and
 * how many kills it took; the service is left down.
 */
export async function killWhileHolding(
  sys: ChaosSystem,
  name: ServiceName,
  queue: string,
  active: () => Promise<string[]>,
): Promise<{ cut: string[]; kills: number }> {
  let cut: string[] = [];
  let kills = 0;
  for (; kills < 3 && cut.length === 0; kills++) {
    if (kills > 0) await sys.services[name].start();
    const held = await waitFor(
      async () => {
        const ids = await active();
        return ids.length > 0 ? ids : undefined;
      },
      { what: `${name} holding ${queue} jobs`, timeoutMs: 60_000, intervalMs: 20 },
    );
    await sys.services[name].kill();
    cut = (await active()).filter((id) => held.includes(id));
  }
  return { cut, kills };
}
