// One strict validation for the API's requests and the portal's forms that ask the same use cases.
export { validate } from '@mm/collections';

// One wording for a field refused by the schema here or by a use case's rule (resolvePayer).
export { invalidField } from '@mm/collections';
