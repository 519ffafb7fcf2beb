import type { RecordJournal } from './record-journal.js';

/**
 * An operator's records of one type by key, kept in its journal: it starts with what the journal restored, and
 * every `set` (a new record, or one changed in place and set again) is written there. Records are plain JSON
 * but for what `revive` puts back (dates).
 */
export class RecordMap<V> {
  private readonly records: Map<string, V>;

  constructor(
    private readonly journal: RecordJournal,
    private readonly type: string,
    revive: (stored: V) => V = (stored) => stored,
  ) {
    this.records = new Map(journal.restored(type).map(([key, stored]) => [key, revive(stored as V)]));
  }

  get(key: string): V | undefined {
    return this.records.get(key);
  }

  has(key: string): boolean {
    return this.records.has(key);
  }

  /** In the order they were first set (a changed record keeps its place). */
  values(): V[] {
    return [...this.records.values()];
  }

  set(key: string, value: V): void {
    this.records.set(key, value);
    this.journal.put(this.type, key, value);
  }
}
