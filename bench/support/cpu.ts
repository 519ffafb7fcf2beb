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
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    });
}

/** CPU seconds used so far, per name, by each of its processes (by process id). */
export type CpuSnapshot = Map<string, Map<number, number>>;

/**
 * CPU seconds used so far by each process of each named service (its replicas when it has several),
 * and by every PostgreSQL and Redis process of the machine.
 */
export function cpuSnapshot(
  services: Record<string, number | undefined | readonly (number | undefined)[]>,
): CpuSnapshot {
  const snap: CpuSnapshot = new Map();
  const byPid = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuOf(pid)]));
  for (const [name, pids] of Object.entries(services)) {
    const running = (Array.isArray(pids) ? pids : [pids]).filter((pid): pid is number => pid !== undefined);
    if (running.length > 0) snap.set(name, byPid(running));
  }
  snap.set('postgres', byPid(pidsNamed('postgres')));
  snap.set('redis', byPid(pidsNamed('redis-server')));
  return snap;
}

/**
 * CPU seconds a name used between two snapshots: each process's own difference, a process started
 * since counted whole. A process that ended in between is left out: a sum over the processes of the
 * moment would subtract its whole life's CPU (a PostgreSQL backend closed by an idle pool after the
 * previous phase made the status read's total smaller than its parts).
 */
export function usedBetween(before: Map<number, number> | undefined, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, s] of after) used += Math.max(0, s - (before?.get(pid) ?? 0));
  return used;
}

/**
 * Where the CPU went between two snapshots, per request: "gateway 2.10, postgres 1.30, ... (total 5.20)",
 * in ms, busiest first; the total is over every process of the snapshot, the idle ones included.
 */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): string {
  const perRequest = [...after].map(
    ([name, pids]) => [name, (usedBetween(before.get(name), pids) * 1000) / Math.max(requests, 1)] as const,
  );
  const total = perRequest.reduce((sum, [, ms]) => sum + ms, 0);
  return `${perRequest
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(', ')} (total ${total.toFixed(2)})`;
}

/** The machine's CPU ticks so far, all CPUs together: those the hypervisor gave to other guests (steal), and all of them. */
export interface MachineTicks {
  steal: number;
  total: number;
}

export function machineTicks(): MachineTicks {
  // user nice system idle iowait irq softirq steal (guest time is counted inside user already).
  const fields =
    /^cpu +(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]?.split(/\s+/).map(Number).slice(0, 8) ?? [];
  return { steal: fields[7] ?? 0, total: fields.reduce((sum, n) => sum + n, 0) };
}

/**
 * The share of the machine's CPU time the hypervisor gave to other guests between two readings, in
 * percent: what a ratio between two phases of one run cannot correct for when it differs between them.
 */
export function stolenPercent(before: MachineTicks, after: MachineTicks): number {
  const total = after.total - before.total;
  return total > 0 ? Math.round((100 * (after.steal - before.steal)) / total) : 0;
}
