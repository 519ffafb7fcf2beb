import express from 'express';
import { parseSecondsList } from '@mm/config';
import { Counter, httpMetrics, listen, liveness, type Logger } from '@mm/observability';
import { listOperatorAccounts } from '@mm/db/operator-accounts';
import type { OperatorAdapter, OperatorDirectory } from '@mm/operators';
import {
  operatorResults,
  QueueProducer,
  reconciliationRuns,
  type OperatorResultReceipt,
  type ProducerOptions,
} from '@mm/queues';
import {
  lateSuccessReturns,
  startOperatorDirectory,
  startWorkerService,
  type RunningWorkerService,
  type WorkerContext,
} from '@mm/worker-runtime';
import type { BridgeEnv } from './env.js';
import { cashoutRequestsHandler } from './processors/cashout-requests.js';
import { customerCodesHandler } from './processors/customer-codes.js';
import { operatorRequestsHandler } from './processors/operator-requests.js';
import { SeenPending } from './seen-pending.js';
import {
  applySignedResultNow,
  operatorResultsHandler,
  type OperatorResultsDeps,
} from './processors/operator-results.js';
import { reconciliationRunsHandler } from './processors/reconciliation-runs.js';
import { reportOpenCases } from './reconciliation/metrics.js';
import { followReconciliationSchedules, type ScheduleFollower } from './reconciliation/schedule.js';
import { callbackUrlFor } from './callback-url.js';
import { operatorCallbackRouter, type CallbackReplays } from './routes/operator-callback.js';
import { InlineApplies } from './routes/inline-applies.js';

/**
 * How long a callback delivery is remembered: past twice the operator's signature tolerance (300 s),
 * a captured callback is refused as stale before it could be taken for new.
 */
const CALLBACK_REPLAY_WINDOW_S = 600;

/** How often the bridge looks whether the operator accounts changed (their reconciliation schedulers follow). */
const SCHEDULE_CHECK_MS = 5_000;

/**
 * How long an operator's callback request may wait for its result to be applied in it: past this it
 * is queued for the worker and answered (a row or a balance locked by someone else, a slow database).
 */
const CALLBACK_APPLY_BUDGET_MS = 1_000;

export interface BridgeOverrides {
  logger?: Logger;
  adapter?: OperatorAdapter;
  jobOptions?: ProducerOptions['jobOptions'];
  now?: () => number;
  /** How often the operator accounts are looked at for their reconciliation schedulers (tests: shorter). */
  scheduleCheckMs?: number;
}

export interface RunningBridge extends RunningWorkerService {
  /** The port the operator calls back (OPERATOR_BRIDGE_PORT); `port` and `internalUrl` are the internal one's. */
  url: string;
  callbackPort: number;
  /** The daily reconciliation schedulers, one per enabled operator account (RECONCILIATION_CRON). */
  reconciliationSchedules: Pick<ScheduleFollower, 'syncNow'>;
}

/**
 * The operator's side of the service: pushes cash-ins and pays cash-outs out (operator-requests,
 * cash-out requests), applies what the operator says (operator-results), and takes the operator's
 * callbacks on its own port, which serves nothing else.
 */
export function startOperatorBridge(env: BridgeEnv, overrides: BridgeOverrides = {}): Promise<RunningBridge> {
  const now = overrides.now ?? Date.now;
  return startWorkerService({
    service: 'operator-bridge',
    env,
    internalPort: env.OPERATOR_BRIDGE_INTERNAL_PORT,
    logger: overrides.logger,
    jobOptions: overrides.jobOptions,
    async setup(ctx) {
      const { db, afterCommit, logger, metrics } = ctx;
      const adapters = await startOperatorDirectory(ctx, env, overrides.adapter);
      const capturedButFailed = new Counter({
        name: 'mm_operator_ok_for_failed_cashin_total',
        help: 'Operator confirmations (money taken) of cash-ins that are FAILED here, repeats included; each such cash-in is returned to its customer (mm_late_success_returns_total).',
        registers: [metrics],
      });
      const lateReturns = lateSuccessReturns(metrics, ['started']);
      const seenPending = new SeenPending();
      const resultsDeps: OperatorResultsDeps = {
        db,
        afterCommit,
        logger,
        adapters,
        seenPending,
        onCapturedButFailed: () => capturedButFailed.inc(),
        onLateSuccessHeld: () => lateReturns.inc({ outcome: 'started' }),
      };
      const callbacks = await serveCallbacks(ctx, env, adapters, now, applySignedResultNow(resultsDeps));
      const customerCodes = customerCodesHandler({ db, adapters, logger });
      // Reconciliation runs here: the bridge holds the operators' adapters. One daily scheduler per enabled
      // account, following the accounts as they change; the open cases reported on /metrics.
      const reconciliations = new QueueProducer(reconciliationRuns, ctx.producerOptions);
      let schedules: ScheduleFollower | null = null;
      ctx.onRelease(async () => {
        await schedules?.stop();
        await reconciliations.close();
      });
      const follower = await followReconciliationSchedules({
        db,
        producer: reconciliations,
        cron: env.RECONCILIATION_CRON,
        directory: adapters,
        checkMs: overrides.scheduleCheckMs ?? SCHEDULE_CHECK_MS,
        ttlMs: env.REFERENCE_CACHE_TTL_S * 1000,
        onSync: (sync) => logger.info(sync, 'reconciliation schedulers synced with the operator accounts'),
        onError: (err) => logger.warn({ err }, 'reconciliation schedulers: sync failed; tried again at the next check'),
      });
      schedules = follower;
      reportOpenCases(metrics, db);
      const operators = [...new Set((await listOperatorAccounts(db)).filter((a) => a.enabled).map((a) => a.operator))];
      return {
        jobs: {
          'operator-requests': {
            concurrency: env.BRIDGE_CONCURRENCY,
            handler: operatorRequestsHandler({
              db,
              adapters,
              afterCommit,
              now,
              seenPending,
              callbackUrl: (t) => callbackUrlFor(env.OPERATOR_CALLBACK_BASE_URL, t),
              returnUrl: (t) => `${env.PUBLIC_BASE_URL.replace(/\/$/, '')}/pay/${t.id}`,
              confirmationTimeoutMs: Math.round(env.CASHIN_CONFIRMATION_TIMEOUT_S * 1000),
              statusPollsMs: env.CASHIN_STATUS_POLL_S ? parseSecondsList(env.CASHIN_STATUS_POLL_S) : [],
            }),
          },
          'operator-results': {
            concurrency: env.BRIDGE_CONCURRENCY,
            handler: operatorResultsHandler(resultsDeps),
          },
          'cashout-requests': {
            concurrency: env.BRIDGE_CONCURRENCY,
            handler: cashoutRequestsHandler({ db, adapters, afterCommit, metrics }),
          },
          'customer-codes': {
            concurrency: env.BRIDGE_CONCURRENCY,
            handler: async (payload) => {
              await customerCodes(payload);
            },
          },
          // One day at a time per process: a run reads a whole day of an account, and asks its operator.
          'reconciliation-runs': {
            concurrency: 1,
            handler: reconciliationRunsHandler({
              db,
              afterCommit,
              logger,
              metrics,
              adapters,
              operators,
              onLateSuccessHeld: () => lateReturns.inc({ outcome: 'started' }),
            }),
          },
        },
        info: { ...callbacks, reconciliationSchedules: { syncNow: () => follower.syncNow() } },
      };
    },
  });
}

/** The operator's port: liveness and its callbacks only (/ready and /metrics are on the internal port). */
async function serveCallbacks(
  ctx: WorkerContext,
  env: BridgeEnv,
  adapters: OperatorDirectory,
  now: () => number,
  applyNow: (result: OperatorResultReceipt) => Promise<boolean>,
): Promise<{ url: string; callbackPort: number }> {
  const { redis, metrics, logger } = ctx;
  const results = new QueueProducer(operatorResults, ctx.producerOptions);
  const replayKey = (key: string) => `${env.REDIS_PREFIX}:operator-callback:${key}`;
  const replays: CallbackReplays = {
    taken: async (key) => (await redis.exists(replayKey(key))) === 1,
    remember: async (key) => {
      await redis.set(replayKey(key), '1', 'EX', CALLBACK_REPLAY_WINDOW_S);
    },
  };
  // All but two of the database pool at most, so the bridge's jobs keep connections even while rows a
  // callback needs are locked by someone else; a second at most each.
  const inline = new InlineApplies(Math.max(1, env.DB_POOL_SIZE - 2), CALLBACK_APPLY_BUDGET_MS, (err) =>
    logger.warn({ err }, 'operator result not applied in the callback; queued for the worker'),
  );
  const callbacks = new Counter({
    name: 'mm_operator_callbacks_total',
    help: 'Operator callbacks received, by outcome: applied (in the request), queued (for the worker: a hint, or the database did not answer), replayed (the same signed delivery again: dropped), invalid (401).',
    labelNames: ['outcome'],
    registers: [metrics],
  });
  const app = express();
  app.disable('x-powered-by');
  app.use(httpMetrics(metrics));
  app.get('/health', liveness);
  // Only the simulator's global route asks it (payments pushed before each had its account's route).
  const paymentAccount = (providerReference: string) =>
    ctx.db.transaction.findUnique({ where: { providerReference }, select: { countryCode: true, operator: true } });
  app.use(
    operatorCallbackRouter({
      simulator: adapters.simulatorAdapter(),
      adapters,
      paymentAccount,
      results,
      applyNow: (job) => inline.run(() => applyNow(job)),
      replays,
      callbacks,
      now,
      logger,
    }),
  );
  const { server, port } = await listen(app, env.OPERATOR_BRIDGE_PORT);
  ctx.onStopIntake(() => new Promise<void>((resolve) => server.close(() => resolve())));
  ctx.onRelease(() => results.close());
  logger.info({ port }, 'operator callbacks listening');
  return { url: `http://127.0.0.1:${port}`, callbackPort: port };
}
