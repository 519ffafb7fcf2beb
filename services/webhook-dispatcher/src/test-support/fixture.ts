import { randomBytes, randomUUID } from 'node:crypto';
import { createDb, type Db, SecretBox } from '@mm/db';
import { type OutboxRow } from '@mm/db/outbox';
import { createApiKey, createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createCashin } from '@mm/db/payments';
import { WEBHOOK_TOPIC } from '@mm/db/webhooks';
import type { TransactionStatus } from '@mm/domain';
import { createLogger } from '@mm/observability';
import {
  createRedisConnection,
  OutboxPublisher,
  QueueProducer,
  webhookDeliveries,
  type WebhookDeliveryJob,
} from '@mm/queues';
import { moveTransaction } from './move-transaction.js';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mm/testing';
import { parseEnv, type WebhookDispatcherEnv } from '../env.js';
import { startWebhookDispatcher, type WebhookDispatcher } from '../service.js';

/** Every retry 50 ms after the previous failure: the whole 7-attempt schedule runs in well under a second. */
export const FAST_SCHEDULE_S = '0.05,0.05,0.05,0.05,0.05,0.05';
export const FAST_SCHEDULE_MS = 50;

export interface Fixture {
  db: Db;
  env: WebhookDispatcherEnv;
  redis: TestRedis;
  /** A publisher of the suite's own, standing in for the service that committed the event. */
  publisher: OutboxPublisher;
  producer: QueueProducer<WebhookDeliveryJob>;
  dispatcher: WebhookDispatcher | null;
  start(): Promise<WebhookDispatcher>;
  /** A merchant whose default webhook URL is `webhookUrl`, with one active key. */
  merchant(webhookUrl: string): Promise<{ merchantId: string; apiSecret: string }>;
  /** Another key of the merchant, newer than its others; returns its secret. */
  newKey(merchantId: string): Promise<string>;
  /**
   * A cash-in moved CREATED -> INITIATED -> each of `path` in turn; returns the webhook outbox rows
   * the moves produced (held rows are not returned, as `transition` does not return them).
   */
  cashin(merchantId: string, path: TransactionStatus[]): Promise<{ transactionId: string; webhookRows: OutboxRow[] }>;
  close(): Promise<void>;
}

export async function createFixture(envOverrides: Record<string, string> = {}): Promise<Fixture> {
  const testDb: TestDatabase = await createTestDatabase();
  const redis = await createTestRedis();
  const masterKey = randomBytes(32).toString('hex');
  const env = parseEnv({
    DATABASE_URL: testDb.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    MASTER_KEY: masterKey,
    LOG_LEVEL: 'silent',
    DB_POOL_SIZE: '4',
    WEBHOOK_RETRY_SCHEDULE_S: FAST_SCHEDULE_S,
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_DISPATCHER_PORT: '0',
    // The relay loop stays out of the way unless a suite asks for it.
    OUTBOX_RELAY_INTERVAL_MS: '60000',
    OUTBOX_GRACE_MS: '0',
    ...envOverrides,
  });
  const db = createDb({ databaseUrl: testDb.url, poolSize: 4 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  const box = new SecretBox(masterKey);
  const connection = createRedisConnection(redis.url);
  const producer = new QueueProducer(webhookDeliveries, { connection, redisPrefix: redis.prefix });
  const publisher = new OutboxPublisher([producer]);

  const fixture: Fixture = {
    db,
    env,
    redis,
    publisher,
    producer,
    dispatcher: null,
    async start() {
      fixture.dispatcher = await startWebhookDispatcher(env, {
        logger: createLogger('webhook-dispatcher-test', 'silent'),
      });
      return fixture.dispatcher;
    },
    async merchant(webhookUrl) {
      const { id } = await createMerchant(db, { name: `merchant ${randomUUID().slice(0, 8)}`, webhookUrl });
      const key = await createApiKey(db, box, id);
      return { merchantId: id, apiSecret: key.apiSecret };
    },
    async newKey(merchantId) {
      return (await createApiKey(db, box, merchantId)).apiSecret;
    },
    async cashin(merchantId, path) {
      const created = await createCashin(db, {
        merchantId,
        merchantOrderId: `order-${randomUUID()}`,
        amount: 1500,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250701020301',
        motif: null,
        returnUrl: null,
        notifyUrl: null,
        metadata: null,
        requestFingerprint: randomUUID(),
      });
      if (created.kind !== 'created') throw new Error('cash-in not created');
      const transactionId = created.transaction.id;
      const webhookRows: OutboxRow[] = [];
      for (const to of ['INITIATED', ...path] as TransactionStatus[]) {
        const outbox = await moveTransaction(db, transactionId, to);
        webhookRows.push(...outbox.filter((r) => r.topic === WEBHOOK_TOPIC));
      }
      return { transactionId, webhookRows };
    },
    async close() {
      await fixture.dispatcher?.stop();
      await producer.close();
      await connection.quit();
      await db.$disconnect();
      await redis.close();
      await testDb.drop();
    },
  };
  return fixture;
}
