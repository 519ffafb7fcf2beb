import type { Logger } from '@mm/observability';
import { instrumentAdapter, operatorAdapterFromEnv, type OperatorAdapter } from '@mm/operators';
import { expiryChecks, webhookDeliveries, type ProducerOptions } from '@mm/queues';
import { startOutboxWorker, type RunningOutboxWorker } from '@mm/worker-runtime';
import type { ExpiryEnv } from './env.js';
import { checkExpiryProcessor } from './processors/check-expiry.js';

export interface ExpiryOverrides {
  logger?: Logger;
  adapter?: OperatorAdapter;
  jobOptions?: ProducerOptions['jobOptions'];
}

export async function startExpiryWorker(env: ExpiryEnv, overrides: ExpiryOverrides = {}): Promise<RunningOutboxWorker> {
  const adapter = overrides.adapter ?? operatorAdapterFromEnv(env);
  return startOutboxWorker({
    service: 'expiry-worker',
    env,
    healthPort: env.EXPIRY_WORKER_PORT,
    consumes: expiryChecks,
    produces: [webhookDeliveries],
    concurrency: env.EXPIRY_CONCURRENCY,
    logger: overrides.logger,
    jobOptions: overrides.jobOptions,
    handler: ({ db, afterCommit, logger, metrics }) => checkExpiryProcessor({ db, adapter: instrumentAdapter(adapter, metrics), afterCommit, logger }),
  });
}
