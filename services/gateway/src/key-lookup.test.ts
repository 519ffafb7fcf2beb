import { randomBytes } from 'node:crypto';
import type { Db } from '@mm/db';
import { createApiKey, createMerchant, lookupApiKey } from '@mm/db/merchants';
import { listenForReferenceChanges, SecretBox, type ReferenceChangeFeed } from '@mm/db';
import { createDbTestDatabase, waitFor, type DbTestDatabase } from '@mm/testing';
import { createKeyLookup } from './key-lookup.js';

let fixture: DbTestDatabase;
let db: Db;
let feed: ReferenceChangeFeed;
const box = new SecretBox(randomBytes(32).toString('hex'));

beforeAll(async () => {
  fixture = await createDbTestDatabase();
  ({ db } = fixture);
  feed = await listenForReferenceChanges({ databaseUrl: fixture.database.url, retryMs: 50 });
});
afterAll(async () => {
  await feed.close();
  await fixture.close();
});

/**
 * The gateway's key lookup with its default bounds, each load counted by key. The issued key is read from
 * the database; a made-up key is answered null without one. What is under test is the memory: 20 000
 * database reads took over two minutes on a loaded CI machine, and lookupApiKey's answer for a key that
 * never existed has its own tests (reference-cache.test.ts).
 */
function countedLookup(issued: string) {
  const loads = new Map<string, number>();
  const findKey = createKeyLookup({
    // A TTL longer than the test may take on a loaded machine: an expiry would be a second read for another reason.
    feed,
    ttlMs: 600_000,
    now: Date.now,
    load: (apiKey) => {
      loads.set(apiKey, (loads.get(apiKey) ?? 0) + 1);
      return apiKey === issued ? lookupApiKey(db, box, apiKey) : Promise.resolve(null);
    },
  });
  return {
    findKey,
    loadsOf: (apiKey: string) => loads.get(apiKey) ?? 0,
    total: () => [...loads.values()].reduce((a, b) => a + b, 0),
  };
}

describe('API key lookup', () => {
  it('a flood of 20 000 unknown, well-formed keys does not push a known key out of memory', async () => {
    const m = await createMerchant(db, { name: 'Flooded', webhookUrl: null });
    const before = feed.generation;
    const key = await createApiKey(db, box, m.id);
    // The key's creation is notified; a notification heard after the first lookup would clear the memory.
    await waitFor(() => feed.generation > before, { what: 'the key creation to be notified' });
    const { findKey, loadsOf, total } = countedLookup(key.apiKey);
    expect(await findKey(key.apiKey)).toMatchObject({ merchantId: m.id, secret: key.apiSecret });

    const unknown = Array.from({ length: 20_000 }, () => `pk_${randomBytes(16).toString('hex')}`);
    for (let i = 0; i < unknown.length; i += 100) {
      const answers = await Promise.all(unknown.slice(i, i + 100).map((k) => findKey(k)));
      expect(answers.every((a) => a === null)).toBe(true);
    }
    // Each unknown key was loaded once (nothing was notified meanwhile) ...
    expect(total()).toBe(1 + unknown.length);
    // ... and the known key is still answered from memory: still one read.
    expect(await findKey(key.apiKey)).toMatchObject({ merchantId: m.id });
    expect(loadsOf(key.apiKey)).toBe(1);
    // Unknown keys are remembered too, in their own bounded memory: the latest are answered without a read.
    expect(await findKey(unknown.at(-1)!)).toBeNull();
    expect(loadsOf(unknown.at(-1)!)).toBe(1);
  }, 120_000);
});
