import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from './client.js';
import {
  createApiKey,
  createMerchant,
  keyUsableAt,
  lookupApiKey,
  revokeApiKey,
  setMerchantStatus,
  setSubsidiaryActive,
} from '../merchants/index.js';
import { ReferenceCache } from './reference-cache.js';
import { listenForReferenceChanges, type ReferenceChangeFeed } from './reference-changes.js';
import { SecretBox } from './secret-box.js';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';

let database: TestDatabase;
let db: Db;
let feed: ReferenceChangeFeed;
const box = new SecretBox(randomBytes(32).toString('hex'));

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2 });
  feed = await listenForReferenceChanges({ databaseUrl: database.url, retryMs: 50 });
});
afterAll(async () => {
  await feed.close();
  await db.$disconnect();
  await database.drop();
});

/** A cache of API keys whose loads are counted: a load is a database read, a hit is none. */
function keyCache(ttlMs = 60_000) {
  const loads: string[] = [];
  const cache = new ReferenceCache({
    feed,
    ttlMs,
    max: 100,
    load: (k) => {
      loads.push(k);
      return lookupApiKey(db, box, k);
    },
  });
  return { cache, loads };
}

/** Waits (deadline 5 s) for a condition that a notification or a reconnection makes true. */
async function until(what: string, probe: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !probe();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const movesOn = (from: number) => until('a change notification', () => feed.generation > from);
/** Runs a change and waits for its notification, so that it cannot clear a cache filled after it. */
async function heard<T>(change: () => Promise<T>): Promise<T> {
  const before = feed.generation;
  const result = await change();
  await movesOn(before);
  return result;
}

describe('reference changes (LISTEN reference_changes)', () => {
  it('is listening once started', () => {
    expect(feed.listening).toBe(true);
  });

  it.each([
    [
      'a new API key',
      async (merchantId: string) => {
        await createApiKey(db, box, merchantId);
      },
    ],
    [
      'a revoked API key',
      async (merchantId: string) => {
        const k = await heard(() => createApiKey(db, box, merchantId));
        await revokeApiKey(db, k.apiKey);
      },
    ],
    [
      'a disabled merchant',
      async (merchantId: string) => {
        await setMerchantStatus(db, merchantId, 'DISABLED');
      },
    ],
    [
      'a deactivated subsidiary',
      async () => {
        await setSubsidiaryActive(db, 'CM', false);
      },
    ],
  ])('notifies %s', async (_what, change) => {
    const m = await createMerchant(db, { name: 'Notified', webhookUrl: null });
    await heard(() => change(m.id));
  });

  it('does not notify a change that was rolled back', async () => {
    const m = await createMerchant(db, { name: 'Rolled back', webhookUrl: null });
    const before = feed.generation;
    await expect(
      db.$transaction(async (tx) => {
        await setMerchantStatus(tx, m.id, 'DISABLED');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // A committed change after it is the marker: only its notification may have arrived.
    const marker = feed.generation;
    await createApiKey(db, box, m.id);
    await movesOn(marker);
    expect(feed.generation).toBe(before + 1);
  });
});

describe('ReferenceCache', () => {
  it('reads the database once for repeated lookups of a key, unknown keys included', async () => {
    const m = await createMerchant(db, { name: 'Cached', webhookUrl: null });
    const key = await heard(() => createApiKey(db, box, m.id));
    const { cache, loads } = keyCache();
    for (let i = 0; i < 3; i++) {
      expect(await cache.get(key.apiKey)).toMatchObject({
        merchantId: m.id,
        secret: key.apiSecret,
        merchantStatus: 'ACTIVE',
      });
      expect(await cache.get('pk_never_issued')).toBeNull();
    }
    expect(loads).toEqual([key.apiKey, 'pk_never_issued']);
  });

  it('drops what it holds once a revocation is notified: the next lookup sees the key revoked', async () => {
    const m = await createMerchant(db, { name: 'Revoked', webhookUrl: null });
    const key = await heard(() => createApiKey(db, box, m.id));
    const other = await heard(() => createApiKey(db, box, m.id));
    const { cache, loads } = keyCache();
    expect(keyUsableAt((await cache.get(key.apiKey))!, new Date())).toBe(true);
    expect(keyUsableAt((await cache.get(key.apiKey))!, new Date())).toBe(true);
    await heard(() => revokeApiKey(db, key.apiKey));
    expect(keyUsableAt((await cache.get(key.apiKey))!, new Date())).toBe(false);

    expect((await cache.get(other.apiKey))?.merchantStatus).toBe('ACTIVE');
    await heard(() => setMerchantStatus(db, m.id, 'DISABLED'));
    expect((await cache.get(other.apiKey))?.merchantStatus).toBe('DISABLED');
    expect(loads).toEqual([key.apiKey, key.apiKey, other.apiKey, other.apiKey]);
  });

  it('does not keep a value loaded while a change was committed (it may predate the change)', async () => {
    const m = await createMerchant(db, { name: 'Racing', webhookUrl: null });
    const key = await heard(() => createApiKey(db, box, m.id));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let loads = 0;
    const cache = new ReferenceCache({
      feed,
      ttlMs: 60_000,
      max: 10,
      load: async (k) => {
        loads++;
        const v = await lookupApiKey(db, box, k);
        if (loads === 1) await gate;
        return v;
      },
    });
    const first = cache.get(key.apiKey);
    await heard(() => revokeApiKey(db, key.apiKey));
    release();
    // The first load read the key before its revocation and answers with it ...
    expect(keyUsableAt((await first)!, new Date())).toBe(true);
    // ... but that answer was not kept: the next lookup reads the revocation.
    expect(keyUsableAt((await cache.get(key.apiKey))!, new Date())).toBe(false);
    expect(loads).toBe(2);
  });

  it('serves nothing from memory while the LISTEN connection is down, and caches again once it is back', async () => {
    const m = await createMerchant(db, { name: 'Unheard', webhookUrl: null });
    const key = await heard(() => createApiKey(db, box, m.id));
    const { cache, loads } = keyCache();
    await cache.get(key.apiKey);
    await cache.get(key.apiKey);
    expect(loads).toHaveLength(1);

    // What a restarted or failed-over database does to the connection.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mm-reference-changes' AND datname = current_database()`,
      );
    } finally {
      await admin.end();
    }
    await until('the feed to notice the lost connection', () => !feed.listening);
    // Not listening, a revocation could go unheard: every lookup reads the database.
    await cache.get(key.apiKey);
    await cache.get(key.apiKey);
    expect(loads).toHaveLength(3);

    await until('the feed to listen again', () => feed.listening);
    await cache.get(key.apiKey);
    await cache.get(key.apiKey);
    expect(loads).toHaveLength(4);
  });

  it('keeps negative answers (unknown keys) in a memory of their own: any number of them never evicts a known key', async () => {
    const m = await createMerchant(db, { name: 'Apart', webhookUrl: null });
    const key = await heard(() => createApiKey(db, box, m.id));
    const loads: string[] = [];
    const cache = new ReferenceCache({
      feed,
      ttlMs: 60_000,
      max: 2,
      negative: { is: (v) => v === null, max: 2 },
      load: (k) => {
        loads.push(k);
        return lookupApiKey(db, box, k);
      },
    });
    await cache.get(key.apiKey);
    const unknown = ['a', 'b', 'c', 'd', 'e'].map((c) => `pk_${c.repeat(32)}`);
    for (const k of unknown) expect(await cache.get(k)).toBeNull();
    expect(await cache.get(key.apiKey)).toMatchObject({ merchantId: m.id });
    // The two latest unknown keys are remembered, the earlier ones were evicted by them, not the known key.
    expect(await cache.get(unknown[4]!)).toBeNull();
    expect(await cache.get(unknown[0]!)).toBeNull();
    expect(loads).toEqual([key.apiKey, ...unknown, unknown[0]]);
  });

  it('keeps nothing with a TTL of 0 (the cache turned off)', async () => {
    const m = await createMerchant(db, { name: 'Uncached', webhookUrl: null });
    const key = await heard(() => createApiKey(db, box, m.id));
    const { cache, loads } = keyCache(0);
    await cache.get(key.apiKey);
    await cache.get(key.apiKey);
    expect(loads).toHaveLength(2);
  });
});
