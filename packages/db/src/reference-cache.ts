import { LRUCache } from 'lru-cache';
import type { ReferenceChangeFeed } from './reference-changes.js';

export interface ReferenceCacheOptions<V> {
  feed: ReferenceChangeFeed;
  load(key: string): Promise<V>;
  /** Longest a value is kept, notifications or not: the bound on staleness if one is ever lost. */
  ttlMs: number;
  max: number;
}

/**
 * Reference data read on every API request (an API key, a subsidiary), kept in memory while PostgreSQL's
 * change notifications are heard. Everything is dropped on any change; nothing is served or kept while
 * the feed is not listening; a value loaded across a change is not kept (it may predate the change).
 */
export class ReferenceCache<V> {
  // Boxed: a cached "unknown key" (null) must be told apart from a miss.
  private readonly entries: LRUCache<string, { value: V }>;
  private seen: number;

  constructor(private readonly o: ReferenceCacheOptions<V>) {
    this.entries = new LRUCache({ max: o.max, ttl: o.ttlMs > 0 ? o.ttlMs : 1 });
    this.seen = o.feed.generation;
  }

  async get(key: string): Promise<V> {
    const generation = this.o.feed.generation;
    if (generation !== this.seen) {
      this.entries.clear();
      this.seen = generation;
    }
    const cacheable = this.o.ttlMs > 0 && this.o.feed.listening;
    const hit = cacheable ? this.entries.get(key) : undefined;
    if (hit) return hit.value;
    const value = await this.o.load(key);
    if (cacheable && this.o.feed.listening && this.o.feed.generation === generation) this.entries.set(key, { value });
    return value;
  }
}
