/**
 * The merchant portal's web app. To add an area (payments, developers, team, ...):
 *   1. src/routes/<area>.ts exporting `<area>Router(deps)`; each route starts with
 *      `requirePermission(...)` from the role table (@mm/domain merchant-permissions.ts);
 *   2. mount it below with `app.use('/<area>', <area>Router(...))`;
 *   3. its nav entry in src/views/nav.ts (BUILT), and its routes in the route × role test's table.
 * Every POST form carries `csrfField(csrfToken(req))`; every change writes `recordAudit` with the
 * merchant's id and the user's (see routes/sign-in.ts) inside the change's own transaction, and runs the
 * same use case as the API (@mm/collections), never a copy of its rules.
 */
import type { CashoutRules } from '@mm/config';
import type { DeploymentMode } from '@mm/domain';
import express, { type Express } from 'express';
import type { Store } from 'express-session';
import type { RedisClient } from '@mm/queues';
import type { Db, SecretBox } from '@mm/db';
import type { ExportConnections } from '@mm/db/payments';
import type { AfterCommit, OutboxPublisher } from '@mm/queues';
import { accessLog, Counter, httpMetrics, liveness, requestId, type Logger, type Registry } from '@mm/observability';
import { countedPasswordCheck, csrfProtection, securityHeaders, sessionMiddleware, type LoginThrottle } from '@mm/web';
import { loadUser, requireSignIn } from './auth/guard.js';
import { SESSION_COOKIE } from './auth/session.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { setLocale } from './http/locals.js';
import { localeOf } from './i18n/locale.js';
import type { Mailer } from '@mm/mail';
import { developersRouter } from './routes/developers.js';
import { accountRouter } from './routes/account.js';
import { cashoutsRouter } from './routes/cashouts.js';
import { homeRouter } from './routes/home.js';
import { invitationRouter } from './routes/invitations.js';
import { linksRouter } from './routes/links.js';
import { passwordResetRouter } from './routes/password-reset.js';
import { paymentsRouter } from './routes/payments.js';
import { securityRouter } from './routes/security.js';
import { signInRouter } from './routes/sign-in.js';
import { statementsRouter } from './routes/statements.js';
import { signUpRouter } from './routes/sign-up.js';
import { teamRouter } from './routes/team.js';

export interface PortalDeps {
  db: Db;
  /** Invitations and password resets (SMTP_URL, MAIL_FROM). */
  mailer: Mailer;
  /** PORTAL_PUBLIC_URL, without a trailing slash: the links in mails. */
  publicUrl: string;
  /** GATEWAY_PUBLIC_URL, without a trailing slash: where a payment link's customer page is. */
  gatewayPublicUrl: string;
  /** Opens the users' TOTP secrets; seals the secrets of keys created here (MASTER_KEY, the gateway's). */
  box: SecretBox;
  /** The login throttle's and the TOTP replay guard's keys. */
  redis: RedisClient;
  redisPrefix: string;
  /** DEPLOYMENT_MODE: sign-up is open in a sandbox deployment only. */
  deploymentMode: DeploymentMode;
  /** The API's cash-out settings (DISBURSEMENT_ENABLED, the amount bounds, the approval totals). */
  cashoutRules: CashoutRules;
  /** Publishes the outbox rows of a committed change (a refund, a cash-out). */
  afterCommit: AfterCommit;
  /** Publishes outbox rows that change no transaction's state (a re-sent webhook). */
  publisher: OutboxPublisher;
  /** The statements download's connections (a pg pool of its own: each download holds one while it lasts). */
  exportPool: ExportConnections;
  logger: Logger;
  metrics: Registry;
  sessionStore: Store;
  throttle: LoginThrottle;
  /** Password reset requests, per email and per address, on keys of their own. */
  resetThrottle: LoginThrottle;
  sessionSecret: string;
  sessionTtlS: number;
  secureCookies: boolean;
  hsts: boolean;
  trustProxy: boolean;
  now(): number;
}

export function createPortalApp(deps: PortalDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ? 1 : false);
  app.use(httpMetrics(deps.metrics));
  app.use(requestId);
  // Never the headers: the session cookie and Set-Cookie would hand sessions to log readers.
  app.use(accessLog(deps.logger));
  app.use(securityHeaders({ hsts: deps.hsts }));
  app.get('/health', liveness);
  app.use((req, res, next) => {
    setLocale(res, localeOf(req));
    next();
  });

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
  // Before any route: a POST without the session's token never reaches a handler.
  app.use(csrfProtection());
  app.use(loadUser({ db: deps.db, sessionTtlS: deps.sessionTtlS, now: deps.now }));

  const attempts = new Counter({
    name: 'mm_merchant_portal_sign_in_attempts_total',
    help: 'Sign-in steps by outcome',
    labelNames: ['outcome'] as const,
    registers: [deps.metrics],
  });
  const verifications = new Counter({
    name: 'mm_merchant_portal_password_verifications_total',
    help: 'Password hashes computed to check a sign-in (one scrypt each)',
    registers: [deps.metrics],
  });
  app.use(
    signInRouter({
      db: deps.db,
      box: deps.box,
      throttle: deps.throttle,
      checkPassword: countedPasswordCheck(verifications),
      redis: deps.redis,
      redisPrefix: deps.redisPrefix,
      attempts,
      now: deps.now,
    }),
  );

  // Links followed from a mail: no session yet.
  app.use(invitationRouter(deps));
  app.use(signUpRouter(deps));
  app.use(
    passwordResetRouter({
      ...deps,
      onMailError: (err) => deps.logger.error({ err }, 'password reset mail not sent'),
    }),
  );

  // Everything below needs a session, whatever its router forgets; each route then checks its permission.
  app.use(requireSignIn);
  app.use(homeRouter({ db: deps.db, now: deps.now }));
  app.use(
    '/developers',
    developersRouter({
      db: deps.db,
      box: deps.box,
      redis: deps.redis,
      redisPrefix: deps.redisPrefix,
      publisher: deps.publisher,
      now: deps.now,
    }),
  );
  app.use(accountRouter(deps));
  app.use(teamRouter(deps));
  app.use(securityRouter(deps));
  app.use(
    paymentsRouter({
      db: deps.db,
      box: deps.box,
      redis: deps.redis,
      redisPrefix: deps.redisPrefix,
      now: deps.now,
      afterCommit: deps.afterCommit,
    }),
  );
  app.use('/cashouts', cashoutsRouter(deps));
  app.use('/links', linksRouter(deps));

  app.use(statementsRouter(deps));

  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
