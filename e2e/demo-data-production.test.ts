import { randomBytes } from 'node:crypto';
import { parseEnv as adminEnv, runCommand } from '@mm/admin-cli';
import { parseEnv as backofficeEnv, startBackoffice } from '@mm/backoffice';
import { DEMO_MERCHANT, DEMO_PORTAL_OWNER, DEMO_STAFF } from '@mm/config';
import { parseEnv as expiryEnv, startExpiryWorker } from '@mm/expiry-worker';
import { parseEnv as gatewayEnv, startGateway } from '@mm/gateway';
import { parseEnv as portalEnv, startMerchantPortal } from '@mm/merchant-portal';
import { createLogger } from '@mm/observability';
import { parseEnv as bridgeEnv, startOperatorBridge } from '@mm/operator-bridge';
import { parseEnv as refundEnv, startRefundWorker } from '@mm/refund-worker';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mm/testing';
import { parseEnv as dispatcherEnv, startWebhookDispatcher } from '@mm/webhook-dispatcher';

/**
 * Security review 2: the demo merchant's key, the demo staff passwords and the demo portal owner's
 * password and TOTP secret are published in the README.
 * Every service with a database, started with NODE_ENV=production, refuses a database where they still
 * work, with a message saying what to shut and how; once they are shut, each one starts.
 */
let database: TestDatabase;
let redis: TestRedis;
const masterKey = randomBytes(32).toString('hex');

beforeAll(async () => {
  database = await createTestDatabase();
  redis = await createTestRedis();
  // What `pnpm start` or the demo Compose stack leaves behind.
  await runCommand(['seed'], adminEnv({ DATABASE_URL: database.url, MASTER_KEY: masterKey, NODE_ENV: 'development' }));
});
afterAll(async () => {
  await redis?.close();
  await database?.drop();
});

function production(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DEPLOYMENT_MODE: 'sandbox',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    LOG_LEVEL: 'silent',
    DB_POOL_SIZE: '2',
    MASTER_KEY: masterKey,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    // Not the published simulator defaults: production refuses those too.
    OPERATOR_API_TOKEN: randomBytes(16).toString('hex'),
    OPERATOR_CALLBACK_SECRET: randomBytes(16).toString('hex'),
    OPERATOR_BASE_URL: 'http://127.0.0.1:9',
    GATEWAY_PORT: '0',
    GATEWAY_INTERNAL_PORT: '0',
    BACKOFFICE_PORT: '0',
    BACKOFFICE_INTERNAL_PORT: '0',
    MERCHANT_PORTAL_PORT: '0',
    MERCHANT_PORTAL_INTERNAL_PORT: '0',
    OPERATOR_BRIDGE_PORT: '0',
    OPERATOR_BRIDGE_INTERNAL_PORT: '0',
    EXPIRY_WORKER_PORT: '0',
    REFUND_WORKER_PORT: '0',
    WEBHOOK_DISPATCHER_PORT: '0',
  };
}

const logger = createLogger('e2e-demo-data', 'silent');
const SERVICES: Record<string, (env: Record<string, string>) => Promise<{ stop(): Promise<void> }>> = {
  gateway: (env) => startGateway(gatewayEnv(env), { logger }),
  backoffice: (env) => startBackoffice(backofficeEnv(env), { logger }),
  'merchant-portal': (env) => startMerchantPortal(portalEnv(env), { logger }),
  'operator-bridge': (env) => startOperatorBridge(bridgeEnv(env), { logger }),
  'expiry-worker': (env) => startExpiryWorker(expiryEnv(env), { logger }),
  'refund-worker': (env) => startRefundWorker(refundEnv(env), { logger }),
  'webhook-dispatcher': (env) => startWebhookDispatcher(dispatcherEnv(env), { logger }),
};

describe('a production service on a database with working demo credentials', () => {
  it('every service with a database refuses to start, naming the demo key, each demo account and the demo portal owner', async () => {
    for (const [name, start] of Object.entries(SERVICES)) {
      const outcome = await start(production()).then(
        async (s) => {
          await s.stop();
          return 'started';
        },
        (err: Error) => err.message,
      );
      expect({ name, outcome }).toEqual({
        name,
        outcome: expect.stringMatching(
          /^refusing to start with NODE_ENV=production: this database holds demo data with published credentials/,
        ),
      });
      expect(outcome).toContain(`key:revoke --api-key ${DEMO_MERCHANT.apiKey}`);
      for (const user of DEMO_STAFF.users) expect(outcome).toContain(`staff:disable --email ${user.email}`);
      expect(outcome).toContain(`merchant-user:disable --email ${DEMO_PORTAL_OWNER.email}`);
    }
  });

  it('the demo key revoked but a demo account enabled: still refused', async () => {
    await runCommand(
      ['key:revoke', '--api-key', DEMO_MERCHANT.apiKey],
      adminEnv({
        DATABASE_URL: database.url,
        MASTER_KEY: masterKey,
        NODE_ENV: 'production',
        DEPLOYMENT_MODE: 'sandbox',
      }),
    );
    await expect(SERVICES.gateway!(production())).rejects.toThrow(/demo staff account admin@demo\.local is enabled/);
  });

  it('once the key is revoked and the demo accounts disabled (admin CLI), every service starts in production', async () => {
    const admin = adminEnv({
      DATABASE_URL: database.url,
      MASTER_KEY: masterKey,
      NODE_ENV: 'production',
      DEPLOYMENT_MODE: 'sandbox',
    });
    for (const user of DEMO_STAFF.users) await runCommand(['staff:disable', '--email', user.email], admin);
    // The staff shut, the demo owner alone still refuses (the portal's own start among them).
    await expect(SERVICES['merchant-portal']!(production())).rejects.toThrow(
      `the demo portal owner ${DEMO_PORTAL_OWNER.email} can sign in with its published password`,
    );
    await runCommand(['merchant-user:disable', '--email', DEMO_PORTAL_OWNER.email], admin);
    for (const [name, start] of Object.entries(SERVICES)) {
      const outcome = await start(production()).then(
        async (s) => {
          await s.stop();
          return 'started';
        },
        (err: Error) => err.message,
      );
      expect({ name, outcome }).toEqual({ name, outcome: 'started' });
    }
  });
});
