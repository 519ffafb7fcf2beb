import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort, waitFor } from '@mm/testing';
import { assertRedisNoEviction } from './redis-policy.js';

describe('Redis eviction policy check', () => {
  let server: ChildProcess;
  let redis: Redis;

  // A second, throw-away Redis server that evicts keys, as a misconfigured production one would.
  beforeAll(async () => {
    const port = await freePort();
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'allkeys-lru'], { stdio: 'ignore' });
    redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
    await waitFor(async () => (await redis.connect().then(() => true, () => false)) || undefined, { what: 'throw-away redis' });
  });
  afterAll(async () => {
    redis.disconnect();
    server.kill('SIGTERM');
  });

  it('refuses a Redis that may evict keys (jobs would vanish)', async () => {
    await expect(assertRedisNoEviction(redis)).rejects.toThrow(/allkeys-lru.*noeviction/);
  });

  it('accepts noeviction', async () => {
    await redis.config('SET', 'maxmemory-policy', 'noeviction');
    await expect(assertRedisNoEviction(redis)).resolves.toBeUndefined();
  });
});
