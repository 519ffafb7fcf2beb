/**
 * A UUID in its canonical spelling only. joi's guid() also takes "(…)", "[…]" and colon-separated
 * spellings, which PostgreSQL's uuid type refuses: an id checked more loosely reaches the database and
 * answers 500 instead of "not found".
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that are not UUIDs are unknown ones, without asking the database. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
