export { isUuid } from '@mm/domain';
export { uuidField } from '@mm/collections';
