/**
 * The back-office web app. To add an area (transactions, webhooks, merchants, ...):
 *   1. src/routes/<area>.ts exporting `<area>Router(deps)`, starting with `router.use(requirePermission(...))`
 *      (finer permissions per route where they differ, e.g. cashouts:read vs cashouts:decide);
 *   2. mount it below with `app.use('/<area>', <area>Router(...))` (its own path, so its guard applies
 *      to it alone);
 *   3. one line in src/views/nav.ts for the link.
 * Every POST form carries `csrfToken(req)` in `_csrf`; every change writes `recordAudit(tx, ...)` with
 * `auditContext(req, res)` inside the same database transaction (see routes/staff.ts).
 */
import type { Queue } from 'bullmq';
import type { DeploymentMode } from '@mm/domain';
import express, { type Express } from 'express';
import type { Store } from 'express-session';
import type { ReconciliationRunQueue } from '@mm/collections';
import type { Db, SecretBox } from '@mm/db';
import type { AfterCommit, OutboxPublisher } from '@mm/queues';
import { Counter, httpMetrics, liveness, type Logger, type Registry, accessLog, requestId } from '@mm/observability';
import { loadStaff, requireLogin } from './auth/guard.js';
import { MULTIPART_POSTS, SESSION_COOKIE } from './http/session.js';
import { type LoginThrottle, countedPasswordCheck, csrfProtection, securityHeaders, sessionMiddleware } from '@mm/web';
import { errorHandler, notFound } from './http/error-handler.js';
import type { OperatorCallHealthReader } from './operator-health.js';
import { homeRouter } from './routes/home.js';
import { loginRouter } from './routes/login.js';
import { staffRouter } from './routes/staff.js';
import { merchantsRouter } from './routes/merchants.js';
import { subsidiariesRouter } from './routes/subsidiaries.js';
import { operatorsRouter } from './routes/operators.js';
import { cashoutsRouter } from './routes/cashouts.js';
import { transactionsRouter, type SearchReads } from './routes/transactions.js';
import { webhooksRouter } from './routes/webhooks.js';
import { parkedJobsRouter } from './routes/parked-jobs.js';
import { auditRouter } from './routes/audit.js';
import { reconciliationRouter } from './routes/reconciliation.js';
import { queuesRouter, QUEUES_PATH } from './routes/queues.js';
import type { Mailer } from '@mm/mail';

export interface BackofficeDeps {
  db: Db;
  /** Runs a transaction search on the read replica while it is usable, else on `db` (absent: on `db`). */
  searches?: SearchReads;
  /** Seals the secrets of the API keys issued in /merchants and the operator credentials set in /operators (MASTER_KEY, the gateway's). */
  box: SecretBox;
  /** A merchant's first owner is invited with the portal's invitation mail (SMTP_URL, MAIL_FROM). */
  mailer: Mailer;
  /** PORTAL_PUBLIC_URL: the invitation links point to the portal. */
  portalUrl: string;
  /** DEPLOYMENT_MODE (sandbox or live): what operator accounts may be set to. */
  deploymentMode: DeploymentMode;
  /** Publishes the outbox rows of a committed change (an approved cash-out, a re-sent webhook). */
  afterCommit: AfterCommit;
  /** Publishes outbox rows that change no transaction's state (a re-sent webhook): nothing to announce. */
  publisher: OutboxPublisher;
  /** Adds reconciliation-runs jobs (a case's re-query, a statement's days): not an outbox queue, added directly. */
  reconciliationRuns: ReconciliationRunQueue;
  /** One bullmq Queue per queue, for the Bull dashboard (service.ts opens them and closes them on stop). */
  dashboardQueues: Queue[];
  /** The operator calls per account, scraped from the workers' /metrics on each /operators load (OPERATOR_METRICS_URLS). */
  operatorCalls: OperatorCallHealthReader;
  logger: Logger;
  metrics: Registry;
  /** express-session store: Redis (connect-redis) in service.ts. */
  sessionStore: Store;
  throttle: LoginThrottle;
  sessionSecret: string;
  sessionTtlS: number;
  secureCookies: boolean;
  /** Strict-Transport-Security on every answer (HSTS). */
  hsts: boolean;
  trustProxy: boolean;
  now(): number;
}

export function createBackofficeApp(deps: BackofficeDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ? 1 : false);
  app.use(httpMetrics(deps.metrics));
  app.use(requestId);
  // Never the headers: the session cookie (request) and Set-Cookie (response) would hand sessions to log readers.
  app.use(accessLog(deps.logger));
  app.use(securityHeaders({ hsts: deps.hsts }));
  // Load balancers' liveness probe needs no session; /ready and /metrics are on the internal port (service.ts).
  app.get('/health', liveness);

  app.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 }));
  app.use(
    sessionMiddleware({
      cookieName: SESSION_COOKIE,
      store: deps.sessionStore,
      secret: deps.sessionSecret,
      ttlS: deps.sessionTtlS,
      secureCookies: deps.secureCookies,
    }),
  );
  // The Bull dashboard's JSON actions cannot carry the form token: its router comes before the CSRF
  // check, with its own login, admin permission and same-origin checks (see routes/queues.ts).
  app.use(
    QUEUES_PATH,
    queuesRouter({
      db: deps.db,
      logger: deps.logger,
      queues: deps.dashboardQueues,
      sessionTtlS: deps.sessionTtlS,
      now: deps.now,
    }),
  );
  // Before any route: a POST without the session's token never reaches a handler.
  app.use(csrfProtection(MULTIPART_POSTS));
  app.use(loadStaff({ db: deps.db, sessionTtlS: deps.sessionTtlS, now: deps.now }));

  const attempts = new Counter({
    name: 'mm_backoffice_login_attempts_total',
    help: 'Login attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [deps.metrics],
  });
  const verifications = new Counter({
    name: 'mm_backoffice_password_verifications_total',
    help: 'Password hashes computed to check a login (one scrypt each)',
    registers: [deps.metrics],
  });
  app.use(
    loginRouter({
      db: deps.db,
      throttle: deps.throttle,
      checkPassword: countedPasswordCheck(verifications),
      attempts,
      now: deps.now,
    }),
  );

  // Everything below needs a login, whatever its router forgets; each router then checks its permission.
  app.use(requireLogin);
  app.use('/staff', staffRouter({ db: deps.db }));
  app.use(
    '/merchants',
    merchantsRouter({ db: deps.db, box: deps.box, mailer: deps.mailer, publicUrl: deps.portalUrl, now: deps.now }),
  );
  app.use('/subsidiaries', subsidiariesRouter({ db: deps.db }));
  app.use(
    '/operators',
    operatorsRouter({
      db: deps.db,
      box: deps.box,
      deploymentMode: deps.deploymentMode,
      operatorCalls: deps.operatorCalls,
      now: deps.now,
    }),
  );
  app.use('/cashouts', cashoutsRouter({ db: deps.db, afterCommit: deps.afterCommit }));
  app.use('/transactions', transactionsRouter({ db: deps.db, searches: deps.searches ?? ((work) => work(deps.db)) }));
  app.use('/webhooks', webhooksRouter({ db: deps.db, publisher: deps.publisher }));
  app.use('/jobs/parked', parkedJobsRouter({ db: deps.db }));
  app.use('/reconciliation', reconciliationRouter({ db: deps.db, runs: deps.reconciliationRuns, logger: deps.logger }));
  app.use('/audit', auditRouter({ db: deps.db }));
  app.use(homeRouter({ db: deps.db, now: deps.now }));

  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
