import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** A connection to Redis: one server (alone or found through Sentinel), or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

type HostPort = { host: string; port: number };

/** Where Redis is: a URL, the sentinels that name its primary, or the nodes of a Redis Cluster. */
export interface RedisTarget {
  url: string;
  sentinel?: { nodes: HostPort[]; master: string };
  clusterNodes?: HostPort[];
}

const hostPorts = (list: string): HostPort[] =>
  list.split(',').map((hostPort) => {
    const at = hostPort.lastIndexOf(':');
    return { host: hostPort.slice(0, at), port: Number(hostPort.slice(at + 1)) };
  });

/**
 * A service's Redis settings: REDIS_URL; REDIS_SENTINELS with REDIS_SENTINEL_MASTER behind Sentinel; or
 * REDIS_CLUSTER_NODES for a Redis Cluster. With either of the last two, REDIS_URL gives only the password (and db).
 */
export function redisTargetOf(env: {
  REDIS_URL: string;
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_MASTER?: string;
  REDIS_CLUSTER_NODES?: string;
}): RedisTarget {
  if (env.REDIS_CLUSTER_NODES) return { url: env.REDIS_URL, clusterNodes: hostPorts(env.REDIS_CLUSTER_NODES) };
  if (!env.REDIS_SENTINELS) return { url: env.REDIS_URL };
  return {
    url: env.REDIS_URL,
    sentinel: { nodes: hostPorts(env.REDIS_SENTINELS), master: env.REDIS_SENTINEL_MASTER ?? 'mymaster' },
  };
}

/** What a Sentinel or Cluster connection takes from REDIS_URL (its host and port name no server then). */
export function redisCredentialsOf(url: string): { username?: string; password?: string; db: number; tls: boolean } {
  const u = new URL(url);
  return {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    db: Number(u.pathname.slice(1) || 0),
    tls: u.protocol === 'rediss:',
  };
}

export interface RedisConnectionOptions {
  /**
   * A command not answered within it is rejected, also while the connection is down and the command
   * waits in ioredis's offline queue. For a process that answers people (the gateway): it says "try
   * again later" in bounded time instead of waiting for Redis. Never on a connection that blocks on
   * purpose (a BullMQ worker's).
   */
  commandTimeoutMs?: number;
  /** null (the default): a command waits for the connection as long as it takes (BullMQ requires it). */
  maxRetriesPerRequest?: number | null;
}

/**
 * BullMQ workers block on Redis: they need maxRetriesPerRequest null (BullMQ refuses otherwise). Behind
 * Sentinel, ioredis asks the sentinels for the primary on every (re)connection and checks the node it
 * reaches is one: a client whose primary died follows the promotion once the sentinels have made it.
 */
export function createRedisConnection(target: string, options?: RedisConnectionOptions): Redis;
export function createRedisConnection(target: RedisTarget, options?: RedisConnectionOptions): RedisClient;
export function createRedisConnection(target: string | RedisTarget, options: RedisConnectionOptions = {}): RedisClient {
  const common: RedisOptions = {
    maxRetriesPerRequest: options.maxRetriesPerRequest ?? null,
    enableReadyCheck: true,
    ...(options.commandTimeoutMs ? { commandTimeout: options.commandTimeoutMs } : {}),
  };
  const { url, sentinel, clusterNodes } = typeof target === 'string' ? { url: target } : target;
  if (!sentinel && !clusterNodes) return new Redis(url, common);
  const { db, tls, ...login } = redisCredentialsOf(url);
  const credentials: RedisOptions = { ...login, ...(tls ? { tls: {} } : {}) };
  // A cluster has no databases but 0; every key of ours carries REDIS_PREFIX's hash tag, so all of them
  // (each BullMQ queue's, whose scripts touch several keys at once, included) are in one slot.
  if (clusterNodes)
    return new Cluster(clusterNodes, { redisOptions: { ...common, ...credentials }, enableReadyCheck: true });
  return new Redis({ ...common, ...credentials, sentinels: sentinel!.nodes, name: sentinel!.master, db });
}

/** ioredis's own errors when Redis cannot be reached or does not answer in time (they carry no code). */
const UNAVAILABLE_MESSAGES = [
  /^Command timed out/,
  /^Connection is closed/,
  /Stream isn't writeable/,
  /^Reached the max retries per request limit/,
];
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * True when `err` says Redis could not be used now (unreachable, not answering within the command
 * timeout, loading its data after a restart), not that the command was wrong.
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  // Replies Redis gives while it cannot serve: still loading its dataset, or a replica cut from its primary.
  // READONLY: a primary demoted to a replica by a failover, still reached until the connection moves on.
  if (/^(LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY)\b/.test(err.message)) return true;
  return UNAVAILABLE_MESSAGES.some((re) => re.test(err.message));
}

export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}:bull`;
}
