export { failingOperator } from './failing-operator.js';
export { lookup } from './payment-lookup.js';
export { oneAdapter } from './one-adapter.js';
