export { createServiceDb } from './demo-data.js';
