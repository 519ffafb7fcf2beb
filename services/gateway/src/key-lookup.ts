import { keyUsableAt, type ActiveKey, type ApiKeyRecord } from '@mm/db/merchants';
import { ReferenceCache, type ReferenceChangeFeed } from '@mm/db';

export interface KeyLookupOptions {
  feed: ReferenceChangeFeed;
  /** One read of a key and its merchant's status (lookupApiKey); null for a key that never existed. */
  load(apiKey: string): Promise<ApiKeyRecord | null>;
  ttlMs: number;
  now(): number;
  /** Keys that exist (usable or revoked): as many as were ever issued, so this bound is rarely reached. */
  knownMax?: number;
  /** Keys that do not exist: anyone can make up any number of them. */
  unknownMax?: number;
}

/**
 * The API key of every request, from memory (ReferenceCache: dropped on any change PostgreSQL notifies).
 * Unknown keys are remembered apart and in a smaller memory, so that a flood of made-up keys, each
 * read from the database once, cannot push the keys of real merchants out of memory.
 */
/** A key from memory or the database; `beforeLoad` runs only before a database read (see ReferenceCache.get). */
export type FindKey = (apiKey: string, beforeLoad?: () => Promise<void>) => Promise<ActiveKey | null>;

export function createKeyLookup(o: KeyLookupOptions): FindKey {
  const keys = new ReferenceCache<ApiKeyRecord | null>({
    feed: o.feed,
    ttlMs: o.ttlMs,
    max: o.knownMax ?? 10_000,
    negative: { is: (key) => key === null, max: o.unknownMax ?? 1_000 },
    load: o.load,
  });
  return async (apiKey, beforeLoad) => {
    const key = await keys.get(apiKey, beforeLoad);
    return key && keyUsableAt(key, new Date(o.now())) ? key : null;
  };
}
