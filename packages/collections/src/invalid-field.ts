import { DomainError } from '@mm/domain';

/** A VALIDATION_ERROR naming one field, as the API's request validation reports every other. */
export function invalidField(field: string, issue: string): DomainError {
  return new DomainError('VALIDATION_ERROR', 'the request is not valid', [{ field, issue }]);
}
