/**
 * Where each process of a `BENCH_CPU_PROF` run spent its busy time: `pnpm --filter @mm/bench exec tsx
 * profile-summary.ts <dir> [--from-s N] [--to-s N]`. Each sample counts for the innermost frame that is not Node's
 * own (a socket write is charged to the library that asked for it), grouped by package (a dependency's
 * name, or our workspace package); Node's own samples with no caller of ours, garbage collection and
 * V8's "(program)" are their own groups. `--from-s` skips the first seconds of each profile (start-up
 * and module loading) so the shares are those of the load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The group a frame belongs to, or null for Node's own code (charged to its caller). */
export function groupOf(url: string, functionName: string): string | null {
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return 'V8 (program)';
    return null;
  }
  if (url.startsWith('node:')) return null;
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  const ours = /\/(packages|services|chaos|bench)\/([^/]+)\//.exec(url);
  return ours ? `${ours[1] === 'packages' ? '@mm/' : ''}${ours[2]}` : url;
}

/** The service a profile is of: the workspace service most of its frames belong to. */
function serviceOf(profile: Profile): string {
  const counts = new Map<string, number>();
  for (const n of profile.nodes) {
    const m = /\/services\/([^/]+)\//.exec(n.callFrame.url);
    if (m) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'unknown';
}

export function summarise(
  profile: Profile,
  fromUs = 0,
  toUs = Infinity,
): { busyMs: number; groups: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const charged = new Map<number, string>();
  const chargeOf = (id: number): string => {
    const known = charged.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const own = groupOf(n.callFrame.url, n.callFrame.functionName);
    const up = parent.get(id);
    const group =
      own ??
      (up === undefined || byId.get(up)!.callFrame.functionName === '(root)'
        ? 'node (no caller of ours)'
        : chargeOf(up));
    charged.set(id, group);
    return group;
  };
  const groups = new Map<string, number>();
  let t = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t < fromUs || t > toUs) return;
    const group = chargeOf(id);
    if (group === 'idle') return;
    busy += dt;
    groups.set(group, (groups.get(group) ?? 0) + dt);
  });
  return { busyMs: busy / 1000, groups };
}

function main(): void {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: profile-summary.ts <dir of .cpuprofile files> [--from-s N] [--to-s N]');
  const secondsArg = (name: string, otherwise: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) * 1e6 : otherwise;
  };
  const fromUs = secondsArg('--from-s', 0);
  const toUs = secondsArg('--to-s', Infinity);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    const { busyMs, groups } = summarise(profile, fromUs, toUs);
    const top = [...groups].sort((a, b) => b[1] - a[1]).slice(0, 14);
    console.log(`\n${serviceOf(profile)} (${file}): ${(busyMs / 1000).toFixed(1)} s busy`);
    for (const [group, us] of top) console.log(`  ${(us / 10 / busyMs).toFixed(1).padStart(5)}%  ${group}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
