import { parseEnv } from './env.js';

const MASTER_KEY = '00'.repeat(32);

describe('webhook dispatcher env', () => {
  it('applies the documented defaults (docs/interface.md, README)', () => {
    const env = parseEnv({ MASTER_KEY });
    expect(env).toEqual(
      expect.objectContaining({
        WEBHOOK_RETRY_SCHEDULE_S: '60,300,900,3600,21600,86400',
        retryScheduleMs: [60_000, 300_000, 900_000, 3_600_000, 21_600_000, 86_400_000],
        WEBHOOK_TIMEOUT_MS: 10_000,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
        WEBHOOK_DISPATCHER_PORT: 3005,
        OUTBOX_RELAY_INTERVAL_MS: 5000,
        OUTBOX_GRACE_MS: 10_000,
        OUTBOX_MAX_FAILED_RUNS: 5,
        WORKER_LOCK_MS: 30_000,
        WEBHOOK_CONCURRENCY: 20,
        REDIS_PREFIX: 'mm',
      }),
    );
  });

  it('accepts decimal seconds, booleans as text, and port 0', () => {
    const env = parseEnv({
      MASTER_KEY,
      WEBHOOK_RETRY_SCHEDULE_S: '0.05, 0.5,2',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_DISPATCHER_PORT: '0',
    });
    expect(env.retryScheduleMs).toEqual([50, 500, 2000]);
    expect(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(true);
    expect(env.WEBHOOK_DISPATCHER_PORT).toBe(0);
    expect(parseEnv({ MASTER_KEY, WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' }).WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(true);
  });

  it('takes a shorter worker lock, but not one under a second', () => {
    expect(parseEnv({ MASTER_KEY, WORKER_LOCK_MS: '2000' }).WORKER_LOCK_MS).toBe(2000);
    expect(() => parseEnv({ MASTER_KEY, WORKER_LOCK_MS: '500' })).toThrow(/WORKER_LOCK_MS/);
  });

  it('refuses to start without MASTER_KEY or with a malformed schedule, naming every problem', () => {
    let message = '';
    try {
      parseEnv({ WEBHOOK_RETRY_SCHEDULE_S: '60,,300', WEBHOOK_TIMEOUT_MS: 'soon' });
    } catch (err) {
      message = (err as Error).message;
    }
    for (const name of ['MASTER_KEY', 'WEBHOOK_RETRY_SCHEDULE_S', 'WEBHOOK_TIMEOUT_MS'])
      expect(message).toContain(name);
    expect(() => parseEnv({ MASTER_KEY, WEBHOOK_RETRY_SCHEDULE_S: '1m' })).toThrow(/WEBHOOK_RETRY_SCHEDULE_S/);
  });
});
