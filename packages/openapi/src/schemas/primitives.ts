import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';

/** A point in time, ISO 8601 in UTC (`2026-11-24T08:00:00.000Z`). */
export const timestamp: SchemaObject = { type: 'string', format: 'date-time' };

/** `schema` or null: a type list for a plain type, oneOf for a reference. */
export function orNull(schema: SchemaObject | ReferenceObject): SchemaObject {
  if ('$ref' in schema) return { oneOf: [schema, { type: 'null' }] };
  const type = schema.type;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  return { oneOf: [schema, { type: 'null' }] };
}

export const ref = (schema: string): ReferenceObject => ({ $ref: `#/components/schemas/${schema}` });

/** A text field as joi's string() takes it: never empty. */
export const text = (maxLength: number, description?: string): SchemaObject => ({
  type: 'string',
  minLength: 1,
  maxLength,
  ...(description ? { description } : {}),
});

/**
 * JSON Schema's if/then/else (valid in OpenAPI 3.1, whose schemas are JSON Schema 2020-12), which the
 * openapi3-ts types do not list: typed here once.
 */
export function conditional(when: SchemaObject, then: SchemaObject, otherwise: SchemaObject): SchemaObject {
  return { if: when, then, else: otherwise } as SchemaObject;
}
