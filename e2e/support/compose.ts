import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);

/** The repository's root: Compose's project directory, where every path of its files starts. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Docker Compose (Debian's docker-compose 1.29 here; COMPOSE_BIN for another, e.g. `docker compose`). */
const COMPOSE = (process.env.COMPOSE_BIN ?? 'docker-compose').split(' ');

export interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  profiles?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/**
 * The secrets the root file requires (`${VAR:?}`), made up for the run: URL-safe, since Compose puts
 * POSTGRES_PASSWORD into URLs as it is.
 */
export function composeSecrets(): Record<string, string> {
  return {
    MASTER_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    OPERATOR_API_TOKEN: randomBytes(16).toString('hex'),
    OPERATOR_CALLBACK_SECRET: randomBytes(16).toString('hex'),
    SIM_SANDBOX_TOKEN: randomBytes(16).toString('hex'),
    POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
  };
}

/**
 * `docker compose -f … config`: Compose itself validates the files, interpolates the variables and
 * merges the overlays into the root file; its output, parsed. Throws with Compose's message when it refuses.
 */
export async function composeConfig(
  files: string[],
  env: Record<string, string>,
  profiles: string[] = [],
): Promise<ComposeFile> {
  const [bin, ...pre] = COMPOSE as [string, ...string[]];
  const args = [...pre, ...files.flatMap((f) => ['-f', f]), ...profiles.flatMap((p) => ['--profile', p]), 'config'];
  const { stdout } = await run(bin, args, { cwd: REPO, env: { PATH: process.env.PATH ?? '', ...env } }).catch(
    (err: Error & { stderr?: string }) => {
      throw new Error(`${COMPOSE.join(' ')} ${args.join(' ')} refused: ${err.stderr ?? err.message}`);
    },
  );
  return parse(stdout) as ComposeFile;
}

/** A service's environment as a process would see it: every value a string. */
export function environmentOf(file: ComposeFile, service: string): Record<string, string> {
  const s = file.services[service];
  if (!s) throw new Error(`no service ${service} in the file`);
  return Object.fromEntries(
    Object.entries(s.environment ?? {})
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, String(v)]),
  );
}

/** The `host:port` pairs a setting names: a URL's, or a comma-separated list's. */
export function endpointsOf(value: string): { host: string; port: number }[] {
  return value.split(',').map((item) => {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(item)) {
      const u = new URL(item);
      return { host: u.hostname, port: Number(u.port || defaultPort(u.protocol)) };
    }
    const [host, port] = item.split(':');
    return { host: host!, port: Number(port) };
  });
}

function defaultPort(protocol: string): number {
  return (
    ({ 'postgresql:': 5432, 'postgres:': 5432, 'redis:': 6379, 'http:': 80, 'https:': 443 } as Record<string, number>)[
      protocol
    ] ?? 0
  );
}

/**
 * The same environment pointed at this machine's engines: every `host:port` of `to` replaced, in URLs
 * and in lists, so that a service's own settings (database entry, password, prefix, master name) are
 * the file's and only the addresses differ.
 */
export function onThisMachine(env: Record<string, string>, to: Record<string, string>): Record<string, string> {
  const moved = (value: string) =>
    Object.entries(to).reduce(
      (v, [from, by]) => v.replace(new RegExp(`(^|@|//|,)${escapeRegExp(from)}(?=/|,|$)`, 'g'), `$1${by}`),
      value,
    );
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, moved(v)]));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
