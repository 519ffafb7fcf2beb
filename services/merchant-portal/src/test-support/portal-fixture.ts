/** A running merchant portal for one test suite: its own database, its own Redis prefix, real wiring (service.ts). */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createDb, type Db, SecretBox } from '@mm/db';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import {
  confirmTotpEnrolment,
  createMerchantUser,
  newRecoveryCodes,
  startTotpEnrolment,
  type MerchantUserAccount,
} from '@mm/db/merchant-users';
import type { MerchantRole } from '@mm/domain';
import { createLogger } from '@mm/observability';
import { createTestDatabase, createTestRedis, TestClient, type TestDatabase, type TestRedis } from '@mm/testing';
import { sessionKeyPrefix } from '@mm/web';
import { newTotpSecret, totpCode } from '../auth/totp.js';
import { SESSION_APP, SESSION_COOKIE } from '../auth/session.js';
import { parseEnv } from '../env.js';
import { startMailCatcher, type MailCatcher } from '@mm/mail/mail-catcher';
import { startMerchantPortal, type PortalOverrides, type RunningPortal } from '../service.js';
import { totpBinding } from '../use-cases/sign-in.js';

export const TEST_PASSWORD = 'test-password-123';

export interface PortalUser extends MerchantUserAccount {
  /** The user's TOTP secret (base32) when two-factor is on. */
  totpSecret: string | null;
  recoveryCodes: string[];
}

export interface PortalFixture {
  url: string;
  internalUrl: string;
  /** The suite's database, for a test that reads it as another service would (the API's export). */
  databaseUrl: string;
  db: Db;
  redis: Redis;
  prefix: string;
  box: SecretBox;
  /** The suite's SMTP server: every mail the portal sends lands here. */
  mail: MailCatcher;
  /** The suite's clock (every request reads it): tests move it instead of waiting. */
  clock: { now: number };
  /** A browser-like client with the portal's session cookie; `headers` go with each request. */
  client(headers?: Record<string, string>): TestClient;
  createMerchant(name?: string): Promise<string>;
  /** A user of `merchantId` with TEST_PASSWORD and, unless `twoFactor: false`, TOTP enrolled. */
  createUser(
    merchantId: string,
    role: MerchantRole,
    opts?: { email?: string; twoFactor?: boolean },
  ): Promise<PortalUser>;
  /** The user's current TOTP code at the suite's clock (each step's code is accepted once). */
  codeOf(user: PortalUser, offsetSteps?: number): string;
  /** Signs `client` in as `user` through both steps; the suite's clock moves one TOTP step after each. */
  signIn(client: TestClient, user: PortalUser): Promise<void>;
  sessionKey(sessionId: string): string;
  stop(): Promise<void>;
}

let counter = 0;

export async function startPortalFixture(
  env: Record<string, string> = {},
  overrides: PortalOverrides = {},
): Promise<PortalFixture> {
  const database: TestDatabase = await createTestDatabase();
  const testRedis: TestRedis = await createTestRedis();
  const db = createDb({ databaseUrl: database.url, poolSize: 3 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  const redis = new Redis(testRedis.url);
  const masterKey = randomBytes(32).toString('hex');
  const box = new SecretBox(masterKey);
  const mail = await startMailCatcher();
  // A minute ahead of the real time: a user's sessions_valid_after, stamped by the database as the suite
  // creates it, must be before the sign-ins the suite's clock then stamps.
  const clock = { now: Date.now() + 60_000 };
  const running: RunningPortal = await startMerchantPortal(
    parseEnv({
      DATABASE_URL: database.url,
      REDIS_URL: testRedis.url,
      REDIS_PREFIX: testRedis.prefix,
      MERCHANT_PORTAL_PORT: '0',
      MERCHANT_PORTAL_INTERNAL_PORT: '0',
      DB_POOL_SIZE: '3',
      MASTER_KEY: masterKey,
      SMTP_URL: mail.url,
      MAIL_FROM: 'Merchant dashboard <no-reply@portal.test>',
      PORTAL_PUBLIC_URL: 'https://portal.test',
      ...env,
    }),
    {
      logger: createLogger('portal-test', process.env.TEST_LOG_LEVEL ?? 'silent'),
      now: () => clock.now,
      ...overrides,
    },
  );
  const codeOf = (user: PortalUser, offsetSteps = 0) => {
    if (!user.totpSecret) throw new Error(`${user.email} has no two-factor`);
    return totpCode(user.totpSecret, clock.now + offsetSteps * 30_000);
  };
  return {
    url: running.url,
    internalUrl: running.internalUrl,
    databaseUrl: database.url,
    db,
    redis,
    prefix: testRedis.prefix,
    box,
    mail,
    clock,
    client: (headers) => new TestClient(running.url, headers, SESSION_COOKIE),
    createMerchant: async (name) =>
      (await createMerchant(db, { name: name ?? `Shop ${++counter}`, webhookUrl: null })).id,
    async createUser(merchantId, role, opts = {}) {
      const account = await createMerchantUser(db, {
        merchantId,
        email: opts.email ?? `${role}${++counter}@shop.test`,
        name: `Test ${role}`,
        role,
        password: TEST_PASSWORD,
      });
      if (opts.twoFactor === false) return { ...account, totpSecret: null, recoveryCodes: [] };
      const secret = newTotpSecret();
      const recoveryCodes = newRecoveryCodes();
      await startTotpEnrolment(db, account.id, box.seal(secret, totpBinding(account.id)));
      await db.$transaction((tx) => confirmTotpEnrolment(tx, account.id, recoveryCodes, new Date(clock.now)));
      return { ...account, totpEnabledAt: new Date(clock.now), totpSecret: secret, recoveryCodes };
    },
    codeOf,
    async signIn(client, user) {
      await client.get('/login');
      const first = await client.post('/login', { email: user.email, password: TEST_PASSWORD });
      if (user.totpSecret) {
        if (first.location !== '/login/code') throw new Error(`password step: ${first.status} ${first.location}`);
        await client.get('/login/code');
        const second = await client.post('/login/code', { code: codeOf(user) });
        if (second.status !== 303) throw new Error(`code step: ${second.status}`);
        clock.now += 30_000;
      } else if (first.status !== 303 || first.location === '/login/code') {
        throw new Error(`password step: ${first.status} ${first.location}`);
      }
      // A page, so the client holds the signed-in session's CSRF token.
      const home = await client.get('/');
      if (home.status !== 200) throw new Error(`signed in, but / answers ${home.status}`);
    },
    sessionKey: (id) => `${sessionKeyPrefix(testRedis.prefix, SESSION_APP)}${id}`,
    async stop() {
      await running.stop();
      await mail.stop();
      redis.disconnect();
      await testRedis.close();
      await db.$disconnect();
      await database.drop();
    },
  };
}
