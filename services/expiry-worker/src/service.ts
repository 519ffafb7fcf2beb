import type { Logger } from '@mm/observability';
import type { OperatorAdapter } from '@mm/operators';
import { retentionPolicy } from '@mm/config';
import { QueueProducer, retentionRuns, type ProducerOptions } from '@mm/queues';
import { startOperatorDirectory, startWorkerService, type RunningWorkerService } from '@mm/worker-runtime';
import type { ExpiryEnv } from './env.js';
import { expiryChecksHandler } from './processors/expiry-checks.js';
import { retentionRunsHandler } from './retention/retention-runs.js';
import { scheduleRetention } from './retention/schedule.js';

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
      const { db, afterCommit, logger, metrics } = ctx;
      const adapters = await startOperatorDirectory(ctx, env, overrides.adapter);
      // The retention job runs here: this worker already runs the system's scheduled checks, and its
      // work (a few DELETE statements an hour) takes no operator and no merchant.
      const retention = new QueueProducer(retentionRuns, ctx.producerOptions);
      ctx.onRelease(() => retention.close());
      await scheduleRetention(retention, env.RETENTION_INTERVAL_S);
      return {
        jobs: {
          'expiry-checks': {
            concurrency: env.EXPIRY_CONCURRENCY,
            handler: expiryChecksHandler({ db, afterCommit, logger, adapters }),
          },
          // One at a time per process: runs of several replicas may overlap, and skip each other's rows.
          'retention-runs': {
            concurrency: 1,
            handler: retentionRunsHandler({ db, logger, metrics, policy: retentionPolicy(env) }),
          },
        },
      };
    },
  });
}
