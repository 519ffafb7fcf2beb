import type { Logger } from '@mm/observability';
import type { OperatorAdapter } from '@mm/operators';
import type { ProducerOptions } from '@mm/queues';
import { startOperatorDirectory, startWorkerService, type RunningWorkerService } from '@mm/worker-runtime';
import type { RefundEnv } from './env.js';
import { refundRequestsHandler } from './processors/refund-requests.js';

export interface RefundWorkerOverrides {
  logger?: Logger;
  adapter?: OperatorAdapter;
  jobOptions?: ProducerOptions['jobOptions'];
}

export function startRefundWorker(
  env: RefundEnv,
  overrides: RefundWorkerOverrides = {},
): Promise<RunningWorkerService> {
  return startWorkerService({
    service: 'refund-worker',
    env,
    internalPort: env.REFUND_WORKER_PORT,
    logger: overrides.logger,
    jobOptions: overrides.jobOptions,
    setup: async (ctx) => {
      const { db, afterCommit, metrics } = ctx;
      const adapters = await startOperatorDirectory(ctx, env, overrides.adapter);
      return {
        jobs: {
          'refund-requests': {
            concurrency: env.REFUND_CONCURRENCY,
            handler: refundRequestsHandler({ db, afterCommit, metrics, adapters }),
          },
        },
      };
    },
  });
}
