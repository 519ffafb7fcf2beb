/**
 * `/queues` (queues:dashboard, admin only): the Bull dashboard (@bull-board/express) over every queue.
 *
 * It is a single-page app of its own: its page loads its scripts and styles from /queues/static, and
 * its actions (retry, clean, pause, ...) are JSON PUT/POST calls to /queues/api that cannot carry our
 * form's CSRF token. So, unlike the other areas, app.ts mounts this router BEFORE the CSRF check, and
 * it brings its own guards, in this order:
 *   1. loadStaff + requirePermission('queues:dashboard'): admin only, the account read on every request;
 *   2. requireSameOrigin: a request that changes something must come from a page of this origin
 *      (Sec-Fetch-Site / Origin), which is what the CSRF token gives the HTML forms;
 *   3. its own Content-Security-Policy (scripts from 'self' only; frame-ancestors 'none' kept);
 *   4. an audit row for every successful change made through it.
 * Nothing under /queues falls through to the rest of the app (a final 404).
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Db } from '@mm/db';
import { recordAudit } from '@mm/db/staff';
import type { Logger } from '@mm/observability';
import { QUEUE_NAMES } from '@mm/queues';
import { auditContext } from '../auth/audit-context.js';
import { loadStaff, requirePermission } from '../auth/guard.js';
import { notFoundError, requireSameOrigin } from '@mm/web';

export interface QueuesRouterDeps {
  db: Db;
  logger: Logger;
  queues: Queue[];
  sessionTtlS: number;
  now(): number;
}

/** Where app.ts mounts it: the dashboard's page needs it for its <base href>. */
export const QUEUES_PATH = '/queues';

/**
 * Scripts only from this origin: no inline script, no eval (the dashboard's bundle needs neither).
 * Styles also allow 'unsafe-inline': its loading screen and its job-data editor (CodeMirror) inject
 * style elements; styles cannot run code, and everything it renders from job data goes through React's
 * escaping. base-uri 'self' for its <base href="/queues/">. Its Google Fonts link stays blocked: staff
 * browsers do not call third parties, the system font is used instead.
 */
const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
].join('; ');

const dashboardCsp: RequestHandler = (_req, res, next) => {
  res.set('Content-Security-Policy', DASHBOARD_CSP);
  next();
};

const QUEUES = new Set<string>(Object.values(QUEUE_NAMES));

/**
 * Dashboard actions change Redis, not the database, so the audit row cannot share a transaction with
 * them: it is written once the action has answered with success, naming the call made.
 */
function auditDashboardActions(deps: QueuesRouterDeps): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const context = auditContext(req, res);
    const call = `${req.method} ${req.path}`;
    // /api/queues/<queue>/...: the queue acted on; /api/queues/pause and the like act on all of them.
    const queue = /^\/api\/queues\/([^/]+)/.exec(req.path)?.[1];
    res.on('finish', () => {
      if (res.statusCode >= 400) return;
      recordAudit(deps.db, {
        ...context,
        action: 'queues.action',
        targetType: 'queue',
        targetId: queue && QUEUES.has(queue) ? queue : '*',
        after: { call, status: res.statusCode },
      }).catch((err: unknown) =>
        deps.logger.error({ err, call }, 'could not write the audit row of a queue dashboard action'),
      );
    });
    next();
  };
}

export function queuesRouter(deps: QueuesRouterDeps): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUES_PATH);
  createBullBoard({
    queues: deps.queues.map((q) => new BullMQAdapter(q)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Queues', miscLinks: [{ text: 'Back-office', url: '/' }], hideDocsLink: true } },
  });
  const board = serverAdapter.getRouter() as Express;
  board.disable('x-powered-by');

  const router = express.Router();
  // Mounted before the app's own loadStaff (see the header): load the account here.
  router.use(loadStaff({ db: deps.db, sessionTtlS: deps.sessionTtlS, now: deps.now }));
  router.use(requirePermission('queues:dashboard'));
  router.use(requireSameOrigin('Refused: this request did not come from a back-office page.'));
  router.use(dashboardCsp);
  router.use(auditDashboardActions(deps));
  router.use(board);
  router.use(() => {
    throw notFoundError();
  });
  return router;
}
