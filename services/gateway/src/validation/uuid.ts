import Joi from 'joi';
import { UUID_PATTERN } from '@mm/domain';

export { isUuid } from '@mm/domain';

/** A UUID body or query field, in its canonical spelling only (see UUID_PATTERN). */
export function uuidField(): Joi.StringSchema {
  return Joi.string().pattern(UUID_PATTERN, 'uuid');
}
