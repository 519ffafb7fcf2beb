import type { RedisClientType } from 'redis';
import { createClient, createCluster, createSentinel } from 'redis';
import { redisCredentialsOf, type RedisTarget } from '@mm/queues';

/** What the back-office does with its sessions' Redis connection. */
export interface SessionRedis {
  on(event: 'error', listener: (err: unknown) => void): unknown;
  connect(): Promise<unknown>;
  ping(): Promise<string>;
  close(): Promise<void>;
  /** For connect-redis, which speaks node-redis only (the services' own connections are ioredis). */
  storeClient: RedisClientType;
}

/**
 * The sessions' node-redis connection: a client of REDIS_URL, behind Sentinel a sentinel-aware one that
 * asks the sentinels for the primary and follows a promotion, or a cluster client (docs/deployment.md).
 */
export function sessionRedisOf(target: RedisTarget): SessionRedis {
  const { db, tls, ...login } = redisCredentialsOf(target.url);
  if (target.clusterNodes) {
    const cluster = createCluster({
      rootNodes: target.clusterNodes.map((n) => ({ socket: { host: n.host, port: n.port, tls } })),
      defaults: { ...login, socket: { tls } },
    });
    // A cluster client answers PING through one of its nodes; connect-redis takes it as it is.
    return Object.assign(cluster, {
      ping: () => cluster.sendCommand(undefined, true, ['PING']) as Promise<string>,
      storeClient: cluster as unknown as RedisClientType,
    });
  }
  if (!target.sentinel) {
    const client = createClient({ url: target.url });
    return Object.assign(client, { storeClient: client as RedisClientType });
  }
  const sentinel = createSentinel({
    name: target.sentinel.master,
    sentinelRootNodes: target.sentinel.nodes,
    nodeClientOptions: { ...login, database: db, socket: { tls } },
  });
  // connect-redis uses get, set, expire, del, mGet and scanIterator, which the sentinel client has too.
  return Object.assign(sentinel, { storeClient: sentinel as unknown as RedisClientType });
}
