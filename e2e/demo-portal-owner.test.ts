import { randomBytes } from 'node:crypto';
import { parseEnv as adminEnv, runCommand } from '@mm/admin-cli';
import { DEMO_PORTAL_OWNER } from '@mm/config';
import { createLogger } from '@mm/observability';
import { parseEnv as portalEnv, startMerchantPortal, totpCode, type RunningPortal } from '@mm/merchant-portal';
import { createTestDatabase, createTestRedis, TestClient, type TestDatabase, type TestRedis } from '@mm/testing';

/**
 * The README's merchant dashboard sign-in, as `pnpm start` leaves it: after the development seed, the demo
 * owner signs in with the published password and a code an authenticator app computes from the published
 * secret (or a published recovery code), and lands on the home page of the demo merchant.
 */
let database: TestDatabase;
let redis: TestRedis;
let portal: RunningPortal;
// A minute ahead, and one TOTP step further for each sign-in: a code is accepted once.
const clock = { now: Date.now() + 60_000 };

beforeAll(async () => {
  database = await createTestDatabase();
  redis = await createTestRedis();
  const masterKey = randomBytes(32).toString('hex');
  await runCommand(['seed'], adminEnv({ DATABASE_URL: database.url, MASTER_KEY: masterKey, NODE_ENV: 'development' }));
  portal = await startMerchantPortal(
    portalEnv({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      MASTER_KEY: masterKey,
      MERCHANT_PORTAL_PORT: '0',
      MERCHANT_PORTAL_INTERNAL_PORT: '0',
      DB_POOL_SIZE: '2',
      LOG_LEVEL: 'silent',
    }),
    { logger: createLogger('e2e-demo-owner', 'silent'), now: () => clock.now },
  );
});
afterAll(async () => {
  await portal?.stop();
  await redis?.close();
  await database?.drop();
});

async function signIn(code: (client: TestClient) => string) {
  const client = new TestClient(portal.url, {}, 'mm_mp_sid');
  await client.get('/login');
  const password = await client.post('/login', {
    email: DEMO_PORTAL_OWNER.email,
    password: DEMO_PORTAL_OWNER.password,
  });
  expect({ status: password.status, location: password.location }).toEqual({ status: 303, location: '/login/code' });
  await client.get('/login/code');
  const second = await client.post('/login/code', { code: code(client) });
  const home = await client.get('/');
  return { second: { status: second.status, location: second.location }, home };
}

it('the demo owner signs in with the published password and a code of the published TOTP secret', async () => {
  const { second, home } = await signIn(() => totpCode(DEMO_PORTAL_OWNER.totpSecret, clock.now));
  expect(second).toEqual({ status: 303, location: '/' });
  expect(home.status).toBe(200);
  expect(home.text).toContain('Demo Shop');
  expect(home.text).toContain(DEMO_PORTAL_OWNER.email);
});

it('or with one of the published recovery codes, once', async () => {
  clock.now += 30_000;
  const code = DEMO_PORTAL_OWNER.recoveryCodes.at(-1)!;
  expect((await signIn(() => code)).second).toEqual({ status: 303, location: '/' });
  expect((await signIn(() => code)).second.status).toBe(401);
});
