/** One installed package version, as pnpm-lock.yaml's `packages:` section lists it. */
export interface LockedPackage {
  name: string;
  version: string;
}

/**
 * Every package version the lockfile installs (lockfile v9: the keys of `packages:`, e.g.
 * `'@babel/core@7.29.13':` or `pg@8.23.1:`), read as text so the check needs no YAML parser. Workspace
 * packages are links in `importers:`, not here.
 */
export function lockedPackages(lockfile: string): LockedPackage[] {
  const found = new Map<string, LockedPackage>();
  let inPackages = false;
  for (const line of lockfile.split('\n')) {
    if (/^\S/.test(line)) inPackages = line.startsWith('packages:');
    if (!inPackages) continue;
    const key = /^ {2}'?((?:@[^/@\s']+\/)?[^@\s']+)@([^('\s:]+)/.exec(line);
    if (key) found.set(`${key[1]}@${key[2]}`, { name: key[1]!, version: key[2]! });
  }
  return [...found.values()];
}
