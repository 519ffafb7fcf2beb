export { openApiDocument } from './document.js';
export { ERROR_STATUS } from './errors.js';
export { WEBHOOK_HEADERS } from './webhooks.js';
