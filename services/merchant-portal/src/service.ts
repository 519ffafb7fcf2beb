import { createExportPool } from '@mm/db/payments';
import { normalizeMerchantUserEmail } from '@mm/db/merchant-users';
import { cashoutRulesOf } from '@mm/config';
import { smtpMailer } from '@mm/mail';
import { cashoutRequests, refundRequests, webhookDeliveries } from '@mm/queues';
import { createLogger, type Logger } from '@mm/observability';
import { LoginThrottle, loginLimitsOf, openWebAppBase, serveWebApp, webAppSettings } from '@mm/web';
import { createPortalApp } from './app.js';
import { SESSION_APP } from './auth/session.js';
import type { MerchantPortalEnv } from './env.js';

export interface PortalOverrides {
  logger?: Logger;
  now?: () => number;
}

export interface RunningPortal {
  url: string;
  port: number;
  /** /health, /ready and /metrics (MERCHANT_PORTAL_INTERNAL_PORT). */
  internalUrl: string;
  stop(): Promise<void>;
}

export async function startMerchantPortal(
  env: MerchantPortalEnv,
  overrides: PortalOverrides = {},
): Promise<RunningPortal> {
  const logger = overrides.logger ?? createLogger('merchant-portal', env.LOG_LEVEL);
  // A refund, a cash-out or a re-sent webhook is an outbox row first, published at once after commit
  // (the relays publish it anyway if this process dies in between), exactly as from the API. Refused in
  // production while demo credentials work on this database (the demo owner among them).
  const base = await openWebAppBase(env, {
    metricsName: 'merchant_portal',
    sessionApp: SESSION_APP,
    outboxQueues: [refundRequests, cashoutRequests, webhookDeliveries],
    normalizeEmail: normalizeMerchantUserEmail,
    logger,
  });
  // The statements download reads through a cursor on a pool of its own, as the API's export does (decisions 8).
  const exportPool = createExportPool({
    databaseUrl: env.DATABASE_URL,
    max: 2,
    onError: (err) => logger.error({ err }, 'export pool connection error'),
  });

  const mailer = smtpMailer(env.SMTP_URL, env.MAIL_FROM);
  const app = createPortalApp({
    db: base.db,
    mailer,
    publicUrl: env.PORTAL_PUBLIC_URL,
    gatewayPublicUrl: env.GATEWAY_PUBLIC_URL,
    box: base.box,
    redis: base.redis,
    redisPrefix: env.REDIS_PREFIX,
    deploymentMode: env.DEPLOYMENT_MODE,
    cashoutRules: cashoutRulesOf(env),
    afterCommit: base.afterCommit,
    publisher: base.publisher,
    exportPool,
    logger,
    metrics: base.metrics,
    sessionStore: base.sessionStore,
    throttle: base.throttle,
    // The same limits on keys of their own: asking for reset links never locks the account's sign-in.
    resetThrottle: new LoginThrottle(
      base.redis,
      env.REDIS_PREFIX,
      loginLimitsOf(env),
      `${SESSION_APP}-reset`,
      normalizeMerchantUserEmail,
    ),
    ...webAppSettings(env),
    now: overrides.now ?? Date.now,
  });

  const served = await serveWebApp(app, base, {
    port: env.MERCHANT_PORTAL_PORT,
    internalPort: env.MERCHANT_PORTAL_INTERNAL_PORT,
    logger,
    what: 'merchant portal',
  });

  return {
    url: served.url,
    port: served.port,
    internalUrl: served.internalUrl,
    async stop() {
      await served.close();
      mailer.close();
      await exportPool.end();
      await base.close();
    },
  };
}
