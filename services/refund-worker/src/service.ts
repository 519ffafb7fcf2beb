import type { Logger } from '@mm/observability';
import { instrumentAdapter, operatorAdapterFromEnv, type OperatorAdapter } from '@mm/operators';
import { refundRequests, webhookDeliveries, type ProducerOptions } from '@mm/queues';
import { startOutboxWorker, type RunningOutboxWorker } from '@mm/worker-runtime';
import type { RefundEnv } from './env.js';
import { executeRefundProcessor } from './processors/execute-refund.js';

export interface RefundWorkerOverrides {
  logger?: Logger;
  adapter?: OperatorAdapter;
  jobOptions?: ProducerOptions['jobOptions'];
}

export async function startRefundWorker(env: RefundEnv, overrides: RefundWorkerOverrides = {}): Promise<RunningOutboxWorker> {
  const adapter = overrides.adapter ?? operatorAdapterFromEnv(env);
  return startOutboxWorker({
    service: 'refund-worker',
    env,
    healthPort: env.REFUND_WORKER_PORT,
    consumes: refundRequests,
    produces: [webhookDeliveries],
    concurrency: env.REFUND_CONCURRENCY,
    logger: overrides.logger,
    jobOptions: overrides.jobOptions,
    handler: ({ db, afterCommit, metrics }) => executeRefundProcessor({ db, adapter: instrumentAdapter(adapter, metrics), afterCommit, metrics }),
  });
}
