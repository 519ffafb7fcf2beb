import express, { type Express } from 'express';
import type { CodeIntake, OperatorChoice } from '@mm/collections';
import type { Db } from '@mm/db';
import type { ExportConnections } from '@mm/db/payments';
import type { AmountLimits, CashoutApprovalRule } from '@mm/domain';
import type { Logger, Registry } from '@mm/observability';
import { liveness, observeRequests } from '@mm/observability';
import type { AfterCommit, TransactionUpdateWaiter } from '@mm/queues';
import { authenticate } from './http/authenticate.js';
import type { FindKey } from './key-lookup.js';
import { errorHandler, guardThenRefuseUndecodable, notFound } from './http/error-handler.js';
import { jsonBody } from './http/json-body.js';
import type { RequestHandler } from 'express';
import type { ReplayGuard } from './http/replay-guard.js';
import type { AuthFailureLimit } from './http/auth-failure-limit.js';
import type { FaultHooks } from './faults/fault-hooks.js';
import type { DatabaseOutage } from './database-outage.js';
import { apiReferenceRouter } from './routes/api-reference.js';
import { balancesRouter } from './routes/balances.js';
import { cashoutRouter } from './routes/cashout.js';
import { paymentPageRouter } from './routes/payment-page.js';
import { paymentsRouter } from './routes/payments.js';
import { paymentLinksRouter } from './routes/payment-links.js';
import { linkPageRouter } from './routes/link-page.js';
import type { LinkSubmitLimit } from './payment-links/link-submit-limit.js';
import { paymentStatus } from './routes/payment-status.js';
import { refundsRouter } from './routes/refunds.js';
import { webhookEventsRouter } from './routes/webhook-events.js';
import { transactionsExportRouter } from './routes/transactions-export.js';

export interface GatewayDeps {
  db: Db;
  /** pg pool of its own for GET /transactions/export (a cursor per download; Prisma cannot stream). */
  /** Where exports read: the replica's pool while it is usable, else the primary's (exportConnections). */
  exportPool: ExportConnections;
  logger: Logger;
  metrics: Registry;
  findKey: FindKey;
  isActiveCountry(countryCode: string): Promise<boolean>;
  /** Which operator a new cash-in or cash-out goes to (the subsidiary's operator accounts). */
  operators: OperatorChoice;
  replayGuard: ReplayGuard;
  /** Failed authentications per client address (429 before any key lookup beyond AUTH_FAILURE_LIMIT). */
  authFailures: AuthFailureLimit;
  rateLimit: RequestHandler;
  /** TRUST_PROXY: proxies in front whose X-Forwarded-For names the client (0: the socket's peer is the client). */
  trustProxyHops: number;
  afterCommit: AfterCommit;
  /** One-time codes posted on the payment page (attempt limit, customer-codes queue). */
  codes?: CodeIntake;
  waiter: TransactionUpdateWaiter;
  /** Submissions of payment links' pages, per link and per client address. */
  linkSubmitLimit: LinkSubmitLimit;
  publicBaseUrl: string;
  toleranceS: number;
  ackWaitMs: number;
  limits: AmountLimits;
  disbursementEnabled: boolean;
  cashoutApprovalRule: CashoutApprovalRule;
  now(): number;
  faults?: FaultHooks;
  /** What the gateway has seen of PostgreSQL going away (fed by every request's failures too). */
  databaseOutage?: DatabaseOutage;
  /** Retry-After of a 503 SERVICE_UNAVAILABLE (the database or Redis could not answer in time). */
  unavailableRetryAfterS?: number;
}

const BODY_LIMIT = '64kb';

export function createGatewayApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Only the client address depends on it (the failed-authentication limit): URLs come from PUBLIC_BASE_URL.
  app.set('trust proxy', deps.trustProxyHops > 0 ? deps.trustProxyHops : false);
  // httpMetrics, requestId and accessLog, in that order, in one layer.
  app.use(observeRequests({ metrics: deps.metrics, logger: deps.logger }));

  // What every API route passes first, in this order. Raw bytes first: the signature covers the exact
  // body received, never re-serialised JSON. inflate false: a compressed body is refused (400) before
  // anything decompresses bytes that nobody has authenticated yet, and a broken gzip stream cannot reach
  // the error handler as a 500.
  const signedAndLimited: RequestHandler[] = [
    express.raw({ type: () => true, limit: BODY_LIMIT, inflate: false }),
    authenticate({
      findKey: deps.findKey,
      replayGuard: deps.replayGuard,
      authFailures: deps.authFailures,
      toleranceS: deps.toleranceS,
      now: deps.now,
    }),
    deps.rateLimit,
  ];
  const apiGuard: RequestHandler[] = [...signedAndLimited, jsonBody];
  // The status read, the API's most frequent request, on the app itself behind the same guard: it walks
  // none of the routers below (the payment page's, the reference's, the API's) to reach its handler. No
  // other route matches its path, so what it answers is what the API router would have answered. GET
  // and HEAD only, which jsonBody lets through untouched: it is left out.
  app.get('/api/v1/payments/:id', ...signedAndLimited, paymentStatus({ db: deps.db }));
  // An id that does not percent-decode fails that route's match before its guard ran: refused after it.
  app.use(guardThenRefuseUndecodable(signedAndLimited));

  // Liveness only, for load balancers: /ready and /metrics are on the internal port (service.ts).
  app.get('/health', liveness);
  app.use(paymentPageRouter({ db: deps.db, codes: deps.codes, publicBaseUrl: deps.publicBaseUrl }));

  const paymentUrl = (id: string) => `${deps.publicBaseUrl.replace(/\/$/, '')}/pay/${id}`;
  const { isActiveCountry, operators } = deps;
  const cashins = {
    db: deps.db,
    afterCommit: deps.afterCommit,
    waiter: deps.waiter,
    limits: deps.limits,
    ackWaitMs: deps.ackWaitMs,
    isActiveCountry,
    operators,
    faults: deps.faults,
    databaseOutage: deps.databaseOutage,
  };
  app.use(
    linkPageRouter({
      cashins,
      limit: deps.linkSubmitLimit,
      publicBaseUrl: deps.publicBaseUrl,
      now: deps.now,
      errors: {
        logger: deps.logger,
        unavailableRetryAfterS: deps.unavailableRetryAfterS,
        onDatabaseUnavailable: (err) => deps.databaseOutage?.seen(err),
      },
    }),
  );

  const api = express.Router();
  api.use(...apiGuard);
  api.use(paymentsRouter({ ...cashins, paymentUrl }));
  api.use(
    paymentLinksRouter({
      db: deps.db,
      limits: deps.limits,
      isActiveCountry,
      now: deps.now,
      publicBaseUrl: deps.publicBaseUrl,
    }),
  );
  api.use(
    cashoutRouter({
      db: deps.db,
      afterCommit: deps.afterCommit,
      limits: deps.limits,
      isActiveCountry,
      operators,
      disbursementEnabled: deps.disbursementEnabled,
      approvalRule: deps.cashoutApprovalRule,
    }),
  );
  api.use(refundsRouter({ db: deps.db, afterCommit: deps.afterCommit }));
  api.use(balancesRouter({ db: deps.db }));
  api.use(transactionsExportRouter({ pool: deps.exportPool, logger: deps.logger }));
  api.use(webhookEventsRouter({ db: deps.db }));
  api.use(notFound);
  // The reference is public: before the authenticated router, which answers everything else under /api/v1.
  app.use('/api/v1', apiReferenceRouter());
  app.use('/api/v1', api);

  app.use(notFound);
  app.use(
    errorHandler(deps.logger, {
      unavailableRetryAfterS: deps.unavailableRetryAfterS,
      onDatabaseUnavailable: (err) => deps.databaseOutage?.seen(err),
    }),
  );
  return app;
}
