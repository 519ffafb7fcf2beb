import { Joi } from '@mm/config';
import { DomainError, UUID_PATTERN } from '@mm/domain';

/** What `validate` needs of a joi schema (any schema built with joi is one). */
export interface StrictSchema<T> {
  validate(
    input: unknown,
    options: { abortEarly: boolean; convert: boolean; allowUnknown: boolean },
  ): { value: T; error?: { details: { path: (string | number)[]; message: string }[] } | undefined };
}

/**
 * Runs a joi schema strictly (no type coercion, unknown fields rejected) and reports every issue: the
 * API's request validation, and the portal's for a form that asks the same use case.
 */
export function validate<T>(schema: StrictSchema<T>, input: unknown): T {
  const { value, error } = schema.validate(input, { abortEarly: false, convert: false, allowUnknown: false });
  if (error) {
    throw new DomainError(
      'VALIDATION_ERROR',
      'the request is not valid',
      error.details.map((d) => ({ field: d.path.join('.') || '(body)', issue: d.message.replace(/^"[^"]*" /, '') })),
    );
  }
  return value;
}

/** A UUID body or query field, in its canonical spelling only (see UUID_PATTERN). */
export function uuidField() {
  return Joi.string().pattern(UUID_PATTERN, 'uuid');
}
