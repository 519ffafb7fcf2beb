const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids that are not UUIDs answer 404 like unknown ones, without asking the database. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
