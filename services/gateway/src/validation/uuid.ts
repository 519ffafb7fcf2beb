import Joi from 'joi';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids that are not UUIDs answer 404 like unknown ones, without asking the database. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A UUID in its canonical spelling only. joi's guid() also takes "(…)", "[…]" and colon-separated
 * spellings, which PostgreSQL's uuid type refuses: they reached the database and answered 500.
 */
export function uuidField(): Joi.StringSchema {
  return Joi.string().pattern(UUID, 'uuid');
}
