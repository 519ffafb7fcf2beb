import { execFileSync } from 'node:child_process';

/** The OS user postgres when this process is root (PostgreSQL and PgBouncer refuse root); null: run as this process's user. */
export function osUserPostgres(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
