import { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  /**
   * A command not answered within it is rejected, also while the connection is down and the command
   * waits in ioredis's offline queue. For a process that answers people (the gateway): it says "try
   * again later" in bounded time instead of waiting for Redis. Never on a connection that blocks on
   * purpose (a BullMQ worker's).
   */
  commandTimeoutMs?: number;
}

/** BullMQ workers block on Redis: they need maxRetriesPerRequest null (BullMQ refuses otherwise). */
export function createRedisConnection(url: string, options: RedisConnectionOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null, enableReadyCheck: true,
    ...(options.commandTimeoutMs ? { commandTimeout: options.commandTimeoutMs } : {}),
  });
}

/** ioredis's own errors when Redis cannot be reached or does not answer in time (they carry no code). */
const UNAVAILABLE_MESSAGES = [/^Command timed out/, /^Connection is closed/, /Stream isn't writeable/, /^Reached the max retries per request limit/];
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
  if (/^(LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)\b/.test(err.message)) return true;
  return UNAVAILABLE_MESSAGES.some((re) => re.test(err.message));
}

export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}:bull`;
}
