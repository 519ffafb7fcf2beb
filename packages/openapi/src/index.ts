export { openApiDocument } from './document.js';
export { ERROR_STATUS } from './errors.js';
