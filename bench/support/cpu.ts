import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100;

/** User + system CPU seconds a process has used so far (from /proc), 0 once it is gone. */
function cpuOf(pid: number): number {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Every process of this name (PostgreSQL forks one backend per connection). */
function pidsNamed(name: string): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name; } catch { return false; }
  });
}

export type CpuSnapshot = Map<string, number>;

/** CPU seconds used so far by each named process, and by PostgreSQL and Redis as a whole. */
export function cpuSnapshot(services: Record<string, number | undefined>): CpuSnapshot {
  const snap: CpuSnapshot = new Map();
  for (const [name, pid] of Object.entries(services)) if (pid) snap.set(name, cpuOf(pid));
  snap.set('postgres', pidsNamed('postgres').reduce((sum, pid) => sum + cpuOf(pid), 0));
  snap.set('redis', pidsNamed('redis-server').reduce((sum, pid) => sum + cpuOf(pid), 0));
  return snap;
}

/** Where the CPU went between two snapshots, per request: "gateway 2.1 ms, postgres 1.3 ms, ...". */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): string {
  return [...after].map(([name, s]) => [name, ((s - (before.get(name) ?? 0)) * 1000) / Math.max(requests, 1)] as const)
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(', ');
}
