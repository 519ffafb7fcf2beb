import { LRUCache } from 'lru-cache';
import type { ReferenceChangeFeed } from './reference-changes.js';

export interface ReferenceCacheOptions<V> {
  feed: ReferenceChangeFeed;
  load(key: string): Promise<V>;
  /** Longest a value is kept, notifications or not: the bound on staleness if one is ever lost. */
  ttlMs: number;
  max: number;
  /**
   * Answers of a kind kept apart, in a memory of their own bounded by `max` (an API key that does not
   * exist): a flood of lookups of made-up names then evicts only other made-up names, never the
   * values in use.
   */
  negative?: { is(value: V): boolean; max: number };
}

/**
 * Reference data read on every API request (an API key, a subsidiary), kept in memory while PostgreSQL's
 * change notifications are heard. Everything is dropped on any change; nothing is served or kept while
 * the feed is not listening; a value loaded across a change is not kept (it may predate the change).
 */
export class ReferenceCache<V> {
  // Boxed: a cached "unknown key" (null) must be told apart from a miss.
  private readonly entries: LRUCache<string, { value: V }>;
  private readonly negatives: LRUCache<string, { value: V }> | null;
  private seen: number;

  constructor(private readonly o: ReferenceCacheOptions<V>) {
    const ttl = o.ttlMs > 0 ? o.ttlMs : 1;
    this.entries = new LRUCache({ max: o.max, ttl });
    this.negatives = o.negative ? new LRUCache({ max: o.negative.max, ttl }) : null;
    this.seen = o.feed.generation;
  }

  /**
   * `beforeLoad` runs only when the value is not in memory, just before it is read: a caller can refuse
   * (throw) a read from the database without paying a check on every hit.
   */
  async get(key: string, beforeLoad?: () => Promise<void>): Promise<V> {
    const generation = this.o.feed.generation;
    if (generation !== this.seen) {
      this.entries.clear();
      this.negatives?.clear();
      this.seen = generation;
    }
    const cacheable = this.o.ttlMs > 0 && this.o.feed.listening;
    const hit = cacheable ? (this.entries.get(key) ?? this.negatives?.get(key)) : undefined;
    if (hit) return hit.value;
    if (beforeLoad) await beforeLoad();
    const value = await this.o.load(key);
    if (cacheable && this.o.feed.listening && this.o.feed.generation === generation) {
      const memory = this.negatives && this.o.negative?.is(value) ? this.negatives : this.entries;
      memory.set(key, { value });
    }
    return value;
  }
}
