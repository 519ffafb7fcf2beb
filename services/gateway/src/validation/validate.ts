import type Joi from 'joi';
import { DomainError } from '@mm/domain';

/** Runs a joi schema strictly (no type coercion, unknown fields rejected) and reports every issue. */
export function validate<T>(schema: Joi.Schema<T>, input: unknown): T {
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

// One wording for a field refused by the schema here or by a use case's rule (resolvePayer).
export { invalidField } from '@mm/collections';
