/**
 * `/developers` (developers:read): API keys and webhooks. Every change (keys:manage, webhooks:manage)
 * asks for a fresh authenticator code and runs the back-office's use case, scoped to the user's merchant;
 * a refused form is shown again with its message and nothing changed. The handlers are in
 * developers-keys.ts and developers-webhooks.ts; every route is here, declared in DEVELOPERS_ROUTES.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { OutboxPublisher } from '@mm/queues';
import { listMerchantKeys, findMerchant } from '@mm/db/merchants';
import { merchantCan } from '@mm/domain';
import { csrfToken, notFoundError, textField } from '@mm/web';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse } from '../http/locals.js';
import { developersText } from '../i18n/developers.js';
import type { StepUpDeps } from '../use-cases/step-up.js';
import { developersView } from '../views/developers.js';
import { renderPage } from '../views/render.js';
import { FormRefusal } from './developers-forms.js';
import { createKey, revokeKey, rollKey } from './developers-keys.js';
import {
  changeWebhookUrl,
  resendEvent,
  resendWindow,
  sendTestEvent,
  showEvent,
  showEventLog,
} from './developers-webhooks.js';
import type { RouteRule } from './route-rules.js';
import type { SecretBox } from '@mm/db';

export const DEVELOPERS_ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/developers', permission: 'developers:read' },
  { method: 'POST', path: '/developers/keys', permission: 'keys:manage' },
  { method: 'POST', path: '/developers/keys/:id/roll', permission: 'keys:manage' },
  { method: 'POST', path: '/developers/keys/:id/revoke', permission: 'keys:manage' },
  { method: 'POST', path: '/developers/webhook-url', permission: 'webhooks:manage' },
  { method: 'POST', path: '/developers/webhook-test', permission: 'webhooks:manage' },
  { method: 'GET', path: '/developers/webhooks', permission: 'developers:read' },
  { method: 'POST', path: '/developers/webhooks/resend-failed', permission: 'webhooks:manage' },
  { method: 'GET', path: '/developers/webhooks/:id', permission: 'developers:read' },
  { method: 'POST', path: '/developers/webhooks/:id/resend', permission: 'webhooks:manage' },
];

export type DevelopersDeps = StepUpDeps & { box: SecretBox; publisher: Pick<OutboxPublisher, 'publish'> };

const DONE = ['revoked', 'unchanged', 'url_saved'] as const;

export function developersRouter(deps: DevelopersDeps): Router {
  const router = express.Router();

  /** The overview, also the page a refused key or URL form comes back to. */
  const overview = async (
    req: Request,
    res: Response,
    extra: { status?: number; error?: string; typedUrl?: string } = {},
  ) => {
    const locale = localeOfResponse(res);
    const d = developersText(locale);
    const user = currentUser(res);
    const merchant = await findMerchant(deps.db, user.merchantId);
    if (!merchant) throw notFoundError();
    const done = textField(req.query, 'done');
    const notice = req.method === 'GET' && DONE.find((k) => k === done);
    renderPage(req, res, {
      status: extra.status ?? 200,
      title: d.title,
      body: developersView(locale, {
        keys: await listMerchantKeys(deps.db, user.merchantId),
        webhookUrl: merchant.webhookUrl,
        now: new Date(deps.now()),
        canManageKeys: merchantCan(user.role, 'keys:manage'),
        canManageWebhooks: merchantCan(user.role, 'webhooks:manage'),
        csrfToken: csrfToken(req),
        ...(notice ? { notice: d[`done_${notice}`] } : {}),
        ...(extra.error ? { error: extra.error } : {}),
        ...(extra.typedUrl !== undefined ? { typedUrl: extra.typedUrl } : {}),
      }),
    });
  };

  /** A FormRefusal shows `page` again with its status and message; any other error goes to the handler. */
  const refusedTo =
    (page: (req: Request, res: Response, extra: { status: number; error: string }) => Promise<void>) =>
    (handler: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response) => {
      try {
        await handler(req, res);
      } catch (err) {
        if (!(err instanceof FormRefusal)) throw err;
        await page(req, res, { status: err.status, error: err.message });
      }
    };
  const backToOverview = refusedTo(overview);
  const backToLog = refusedTo((req, res, extra) => showEventLog(deps, req, res, extra));
  const idOf = (req: Request) => (req.params as Record<string, string>).id ?? '';
  const backToEvent = refusedTo((req, res, extra) => showEvent(deps, req, res, idOf(req), extra));

  router.get('/', requirePermission('developers:read'), (req, res) => overview(req, res));

  router.post(
    '/keys',
    requirePermission('keys:manage'),
    backToOverview((req, res) => createKey(deps, req, res)),
  );
  router.post(
    '/keys/:id/roll',
    requirePermission('keys:manage'),
    backToOverview((req, res) => rollKey(deps, req, res, idOf(req))),
  );
  router.post(
    '/keys/:id/revoke',
    requirePermission('keys:manage'),
    backToOverview((req, res) => revokeKey(deps, req, res, idOf(req))),
  );

  router.post(
    '/webhook-url',
    requirePermission('webhooks:manage'),
    refusedTo((req, res, extra) =>
      overview(req, res, { ...extra, typedUrl: textField(req.body, 'webhook_url') ?? '' }),
    )(async (req, res) => {
      const outcome = await changeWebhookUrl(deps, req, res);
      res.redirect(303, `/developers?done=${outcome === 'saved' ? 'url_saved' : 'unchanged'}`);
    }),
  );
  router.post(
    '/webhook-test',
    requirePermission('webhooks:manage'),
    backToOverview((req, res) => sendTestEvent(deps, req, res)),
  );

  router.get('/webhooks', requirePermission('developers:read'), (req, res) => showEventLog(deps, req, res));
  router.post(
    '/webhooks/resend-failed',
    requirePermission('webhooks:manage'),
    backToLog((req, res) => resendWindow(deps, req, res)),
  );
  router.get('/webhooks/:id', requirePermission('developers:read'), (req, res) => showEvent(deps, req, res, idOf(req)));
  router.post(
    '/webhooks/:id/resend',
    requirePermission('webhooks:manage'),
    backToEvent((req, res) => resendEvent(deps, req, res, idOf(req))),
  );

  return router;
}
