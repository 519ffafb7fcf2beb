import { common, operator, retention, retentionPolicy } from './fragments.js';
import { parseEnv } from './parse-env.js';
import Joi from 'joi';

const schema = Joi.object({ ...operator, NODE_ENV: Joi.string().default('test') });

describe('operator fragment', () => {
  it('the breaker: 10 unreachable answers in a row, a probe every 30 s by default; 0 turns it off; nothing negative', () => {
    expect(parseEnv(schema, {})).toMatchObject({ OPERATOR_BREAKER_THRESHOLD: 10, OPERATOR_BREAKER_PROBE_S: 30 });
    expect(parseEnv(schema, { OPERATOR_BREAKER_THRESHOLD: '0', OPERATOR_BREAKER_PROBE_S: '0.05' })).toMatchObject({
      OPERATOR_BREAKER_THRESHOLD: 0,
      OPERATOR_BREAKER_PROBE_S: 0.05,
    });
    expect(() => parseEnv(schema, { OPERATOR_BREAKER_THRESHOLD: '-1', OPERATOR_BREAKER_PROBE_S: '0' })).toThrow(
      /OPERATOR_BREAKER_THRESHOLD.*OPERATOR_BREAKER_PROBE_S/,
    );
  });
});

describe('retention fragment', () => {
  const retentionSchema = Joi.object({ ...retention, NODE_ENV: Joi.string().default('test') });

  it('runs hourly, keeps completed outbox rows 7 days and finished webhook attempts 90, 1000 rows per DELETE', () => {
    const env = parseEnv(retentionSchema, {});
    expect(env).toMatchObject({
      RETENTION_INTERVAL_S: 3600,
      RETENTION_OUTBOX_DAYS: 7,
      RETENTION_WEBHOOK_ATTEMPTS_DAYS: 90,
      RETENTION_BATCH_SIZE: 1000,
    });
    expect(retentionPolicy(env)).toEqual({ outboxDays: 7, webhookAttemptsDays: 90, batchSize: 1000 });
  });

  it('refuses a retention under a day (rows would go as they are written) and batches out of bounds; an interval of 0 schedules nothing', () => {
    expect(parseEnv(retentionSchema, { RETENTION_INTERVAL_S: '0' })).toMatchObject({ RETENTION_INTERVAL_S: 0 });
    expect(() =>
      parseEnv(retentionSchema, {
        RETENTION_OUTBOX_DAYS: '0',
        RETENTION_WEBHOOK_ATTEMPTS_DAYS: '0.5',
        RETENTION_BATCH_SIZE: '0',
        RETENTION_INTERVAL_S: '-1',
      }),
    ).toThrow(/RETENTION_INTERVAL_S.*RETENTION_OUTBOX_DAYS.*RETENTION_WEBHOOK_ATTEMPTS_DAYS.*RETENTION_BATCH_SIZE/s);
    expect(() => parseEnv(retentionSchema, { RETENTION_BATCH_SIZE: '100000' })).toThrow(/RETENTION_BATCH_SIZE/);
  });
});

describe('common fragment: where PostgreSQL and Redis are', () => {
  const commonSchema = Joi.object(common);
  it('a Redis Cluster needs a hash-tagged prefix: {mm} unless set, and one without braces is refused; one Redis takes a plain one or a tag', () => {
    expect(parseEnv(commonSchema, {})).toMatchObject({ REDIS_PREFIX: 'mm', DB_POOLING: 'direct' });
    expect(parseEnv(commonSchema, { REDIS_PREFIX: '{mm}' })).toMatchObject({ REDIS_PREFIX: '{mm}' });
    expect(parseEnv(commonSchema, { REDIS_CLUSTER_NODES: 'redis-0:6379,10.0.0.2:6380' })).toMatchObject({
      REDIS_CLUSTER_NODES: 'redis-0:6379,10.0.0.2:6380',
      REDIS_PREFIX: '{mm}',
    });
    expect(parseEnv(commonSchema, { REDIS_CLUSTER_NODES: 'redis-0:6379', REDIS_PREFIX: '{shop}' })).toMatchObject({
      REDIS_PREFIX: '{shop}',
    });
    for (const plain of ['mm', 'prod-mm']) {
      expect(() => parseEnv(commonSchema, { REDIS_CLUSTER_NODES: 'redis-0:6379', REDIS_PREFIX: plain })).toThrow(
        /REDIS_PREFIX.*hash tag such as \{mm\}/,
      );
    }
    expect(() => parseEnv(commonSchema, { REDIS_CLUSTER_NODES: 'redis-0' })).toThrow(/REDIS_CLUSTER_NODES/);
  });

  it('behind a transaction-mode pooler, PostgreSQL itself must be given too (DATABASE_DIRECT_URL)', () => {
    expect(() => parseEnv(commonSchema, { DB_POOLING: 'transaction' })).toThrow(
      /DATABASE_DIRECT_URL: DATABASE_DIRECT_URL is required with transaction pooling \(DB_POOLING=transaction, or pgbouncer=true in DATABASE_URL\): PostgreSQL itself/,
    );
    expect(
      parseEnv(commonSchema, { DB_POOLING: 'transaction', DATABASE_DIRECT_URL: 'postgresql://postgres@db:5432/mm' }),
    ).toMatchObject({ DB_POOLING: 'transaction', DATABASE_DIRECT_URL: 'postgresql://postgres@db:5432/mm' });
  });

  describe("Prisma's ?pgbouncer=true on DATABASE_URL", () => {
    const pooler = 'postgresql://mm@pgbouncer:6432/mm_gateway?pgbouncer=true';
    const direct = 'postgresql://mm@db:5432/mm';

    it('is transaction pooling: DB_POOLING defaults to transaction, DB_POOLING=transaction agrees', () => {
      for (const url of [
        pooler,
        'postgresql://mm@pgbouncer:6432/mm?sslmode=require&pgbouncer=true',
        'postgresql://mm@pgbouncer:6432/mm?pgbouncer=true&connection_limit=5',
      ]) {
        expect(parseEnv(commonSchema, { DATABASE_URL: url, DATABASE_DIRECT_URL: direct })).toMatchObject({
          DATABASE_URL: url,
          DB_POOLING: 'transaction',
          DATABASE_DIRECT_URL: direct,
        });
      }
      expect(
        parseEnv(commonSchema, { DATABASE_URL: pooler, DB_POOLING: 'transaction', DATABASE_DIRECT_URL: direct }),
      ).toMatchObject({ DB_POOLING: 'transaction' });
      // Anything else stays direct by default.
      for (const url of [
        'postgresql://mm@db:5432/mm',
        'postgresql://mm@pgbouncer:6432/mm?pgbouncer=false',
        'postgresql://mm@db:5432/pgbouncer=true',
      ]) {
        expect(parseEnv(commonSchema, { DATABASE_URL: url })).toMatchObject({ DB_POOLING: 'direct' });
      }
    });

    it('needs DATABASE_DIRECT_URL, and says why', () => {
      expect(() => parseEnv(commonSchema, { DATABASE_URL: pooler })).toThrow(
        /DATABASE_DIRECT_URL: DATABASE_DIRECT_URL is required with transaction pooling \(DB_POOLING=transaction, or pgbouncer=true in DATABASE_URL\): PostgreSQL itself, not the pooler/,
      );
    });

    it('contradicts an explicit DB_POOLING=direct: refused, naming both', () => {
      expect(() =>
        parseEnv(commonSchema, { DATABASE_URL: pooler, DB_POOLING: 'direct', DATABASE_DIRECT_URL: direct }),
      ).toThrow(/DB_POOLING: DB_POOLING=direct contradicts pgbouncer=true in DATABASE_URL/);
    });
  });
});
