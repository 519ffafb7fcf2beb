import type { Logger } from '@mm/observability';
import type { OperatorAdapter } from '@mm/operators';
import type { ProducerOptions } from '@mm/queues';
import { startOperatorDirectory, startWorkerService, type RunningWorkerService } from '@mm/worker-runtime';
import type { ExpiryEnv } from './env.js';
import { expiryChecksHandler } from './processors/expiry-checks.js';

export interface ExpiryOverrides {
  logger?: Logger;
  adapter?: OperatorAdapter;
  jobOptions?: ProducerOptions['jobOptions'];
}

export function startExpiryWorker(env: ExpiryEnv, overrides: ExpiryOverrides = {}): Promise<RunningWorkerService> {
  return startWorkerService({
    service: 'expiry-worker',
    env,
    internalPort: env.EXPIRY_WORKER_PORT,
    logger: overrides.logger,
    jobOptions: overrides.jobOptions,
    setup: async (ctx) => {
      const { db, afterCommit, logger } = ctx;
      const adapters = await startOperatorDirectory(ctx, env, overrides.adapter);
      return {
        jobs: {
          'expiry-checks': {
            concurrency: env.EXPIRY_CONCURRENCY,
            handler: expiryChecksHandler({ db, afterCommit, logger, adapters }),
          },
        },
      };
    },
  });
}
