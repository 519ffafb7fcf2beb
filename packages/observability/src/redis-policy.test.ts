import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { freePort, waitFor } from '@mm/testing';
import { assertRedisNoEviction } from './redis-policy.js';

describe('Redis eviction policy check', () => {
  let server: ChildProcess;
  let redis: Redis;

  // A second, throw-away Redis server that evicts keys, as a misconfigured production one would.
  beforeAll(async () => {
    const port = await freePort();
    server = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'allkeys-lru',
      ],
      { stdio: 'ignore' },
    );
    // Connect only once the server listens: a client whose first connect is refused reconnects on its
    // own, and connect() on it then rejects for good, so a server slower than the first try never passed.
    await waitFor(
      () =>
        new Promise<true | undefined>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(undefined));
        }),
      { what: 'throw-away redis' },
    );
    redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await redis.quit();
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });

  it('refuses a Redis that may evict keys (jobs would vanish)', async () => {
    await expect(assertRedisNoEviction(redis)).rejects.toThrow(/allkeys-lru.*noeviction/);
  });

  it('accepts noeviction', async () => {
    await redis.config('SET', 'maxmemory-policy', 'noeviction');
    await expect(assertRedisNoEviction(redis)).resolves.toBeUndefined();
  });
});
