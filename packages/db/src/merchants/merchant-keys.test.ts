import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db, SecretBox } from '../database/index.js';
import {
  createApiKey,
  createMerchant,
  findActiveKey,
  revokeApiKey,
  rotateApiKey as rotateInTx,
  setMerchantStatus,
  setMerchantWebhookUrl,
} from './merchants.js';

let database: TestDatabase;
const rotateApiKey = (d: Db, box: SecretBox, apiKey: string, graceS: number, now?: Date) =>
  d.$transaction((tx) => rotateInTx(tx, box, apiKey, graceS, now));
let db: Db;
const box = new SecretBox(randomBytes(32).toString('hex'));

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2 });
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

describe('merchant keys and status (decisions 1 and 2)', () => {
  it('rotation issues a new key and keeps the old one working only for the grace period', async () => {
    const m = await createMerchant(db, { name: 'Rotating', webhookUrl: null });
    const old = await createApiKey(db, box, m.id);
    const now = new Date();
    const fresh = await rotateApiKey(db, box, old.apiKey, 3600, now);
    expect(fresh?.merchantId).toBe(m.id);
    expect(fresh?.apiKey).not.toBe(old.apiKey);
    expect((await findActiveKey(db, box, fresh!.apiKey))?.secret).toBe(fresh!.apiSecret);
    // Still inside the grace period: the old key works.
    expect(await findActiveKey(db, box, old.apiKey)).not.toBeNull();
    const row = await db.apiKey.findUniqueOrThrow({ where: { apiKey: old.apiKey } });
    expect(row.revokedAt!.getTime()).toBe(now.getTime() + 3_600_000);
    // Revoking during the grace period ends it at once.
    expect(await revokeApiKey(db, old.apiKey)).toBe(true);
    expect(await findActiveKey(db, box, old.apiKey)).toBeNull();
    expect(await revokeApiKey(db, old.apiKey)).toBe(false);
    expect(await rotateApiKey(db, box, old.apiKey, 0)).toBeNull();
  });

  it('rotation with no grace revokes the old key at once', async () => {
    const m = await createMerchant(db, { name: 'Rotating now', webhookUrl: null });
    const old = await createApiKey(db, box, m.id);
    await rotateApiKey(db, box, old.apiKey, 0);
    expect(await findActiveKey(db, box, old.apiKey)).toBeNull();
  });

  it('disables and re-enables a merchant and changes its default webhook URL', async () => {
    const m = await createMerchant(db, { name: 'Toggle', webhookUrl: null });
    const key = await createApiKey(db, box, m.id);
    expect(await setMerchantStatus(db, m.id, 'DISABLED')).toBe(true);
    expect((await findActiveKey(db, box, key.apiKey))?.merchantStatus).toBe('DISABLED');
    await setMerchantStatus(db, m.id, 'ACTIVE');
    expect((await findActiveKey(db, box, key.apiKey))?.merchantStatus).toBe('ACTIVE');
    expect(await setMerchantWebhookUrl(db, m.id, 'https://shop.example/hooks')).toBe(true);
    expect((await db.merchant.findUniqueOrThrow({ where: { id: m.id } })).webhookUrl).toBe(
      'https://shop.example/hooks',
    );
    expect(await setMerchantStatus(db, '00000000-0000-4000-8000-000000000000', 'DISABLED')).toBe(false);
  });

  it('issues keys only in the format the gateway accepts (anything else could never authenticate)', async () => {
    const m = await createMerchant(db, { name: 'Formats', webhookUrl: null });
    expect((await createApiKey(db, box, m.id)).apiKey).toMatch(/^pk_[0-9a-f]{32}$/);
    await expect(createApiKey(db, box, m.id, { apiKey: 'pk_not_hex', apiSecret: 'sk_x' })).rejects.toThrow(
      /32 lowercase hex/,
    );
    expect(await db.apiKey.count({ where: { apiKey: 'pk_not_hex' } })).toBe(0);
  });
});
