export { startRefundWorker, type RefundWorkerOverrides } from './service.js';
export { parseEnv, type RefundEnv } from './env.js';
