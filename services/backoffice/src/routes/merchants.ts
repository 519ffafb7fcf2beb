/**
 * `/merchants` (merchants:read, every role): the list, a merchant's page with its keys. Changes need
 * merchants:manage (create, disable/enable, default webhook URL); the keys sub-router (routes/merchant-keys.ts)
 * needs keys:manage. Creation answers with the page showing the first key's secret, once (no redirect:
 * the secret is never kept anywhere to be shown later); the other POSTs redirect (303).
 */
import express, { type Request, type Response, type Router } from 'express';
import {
  changeMerchantStatus,
  changeMerchantWebhookUrl,
  createMerchantWithKey,
  DEFAULT_ROTATION_GRACE_S,
} from '@mm/collections';
import type { Db } from '@mm/db';
import { findMerchant, listMerchantKeys, listMerchants } from '@mm/db/merchants';
import { type SecretBox } from '@mm/db';
import { can } from '@mm/domain';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, formField, notFoundError } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import { inviteMerchantOwner, type InviteOwnerDeps } from '../use-cases/invite-owner.js';
import { issuedKeyView } from '../views/issued-key.js';
import { merchantDetailView } from '../views/merchant-detail.js';
import { merchantListView, type MerchantFormState } from '../views/merchants.js';
import { renderPage } from '../views/render.js';
import { GRACE_OPTIONS, merchantKeysRouter } from './merchant-keys.js';

export interface MerchantsDeps extends InviteOwnerDeps {
  db: Db;
  /** Seals the secrets of the keys issued here (MASTER_KEY). */
  box: SecretBox;
  now(): number;
}

const NOTICES: Record<string, string> = {
  disabled: 'The merchant is disabled: its API calls are refused from now on.',
  enabled: 'The merchant is enabled.',
  'webhook-url': 'The default webhook URL is saved.',
  revoked: 'The key is revoked: it no longer works.',
  unchanged: 'Nothing changed: it already was so.',
  'owner-invited': 'The invitation has been sent: the link works once, for 72 hours.',
  'owner-mail-failed':
    'The invitation was created but its mail could not be sent: invite the same address again later.',
};

function noticeOf(req: Request): string | undefined {
  return typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
}

async function renderList(req: Request, res: Response, db: Db, refused?: MerchantFormState): Promise<void> {
  renderPage(req, res, {
    status: refused ? 400 : 200,
    title: 'Merchants',
    body: merchantListView({
      merchants: await listMerchants(db),
      canManage: can(currentStaff(res).role, 'merchants:manage'),
      csrfToken: csrfToken(req),
      notice: noticeOf(req),
      form: refused,
    }),
  });
}

async function renderDetail(
  req: Request,
  res: Response,
  deps: MerchantsDeps,
  id: string,
  webhookForm?: { value: string; error: string },
  ownerForm?: { value: string; error: string },
): Promise<void> {
  const merchant = await findMerchant(deps.db, id);
  if (!merchant) throw notFoundError();
  const role = currentStaff(res).role;
  renderPage(req, res, {
    status: webhookForm || ownerForm ? 400 : 200,
    title: merchant.name,
    body: merchantDetailView({
      merchant,
      keys: await listMerchantKeys(deps.db, merchant.id),
      now: new Date(deps.now()),
      canManage: can(role, 'merchants:manage'),
      canManageKeys: can(role, 'keys:manage'),
      graceOptions: GRACE_OPTIONS,
      defaultGraceS: DEFAULT_ROTATION_GRACE_S,
      csrfToken: csrfToken(req),
      notice: webhookForm || ownerForm ? undefined : noticeOf(req),
      webhookForm,
      ownerForm,
    }),
  });
}

export function merchantsRouter(deps: MerchantsDeps): Router {
  const { db, box } = deps;
  const router = express.Router();
  router.use(requirePermission('merchants:read'));

  router.get('/', (req, res) => renderList(req, res, db));

  router.post('/', requirePermission('merchants:manage'), async (req, res) => {
    const input = { name: formField(req, 'name'), webhookUrl: formField(req, 'webhook_url') };
    const outcome = await createMerchantWithKey({ db, box }, auditContext(req, res), input);
    if (outcome.kind === 'invalid') return renderList(req, res, db, { ...input, errors: outcome.errors });
    renderPage(req, res, {
      status: 201,
      title: 'Merchant created',
      body: issuedKeyView({ heading: 'Merchant created', merchant: outcome.merchant, key: outcome.key }),
    });
  });

  router.get('/:id', (req, res) => renderDetail(req, res, deps, req.params.id));

  for (const action of ['disable', 'enable'] as const) {
    router.post(`/:id/${action}`, requirePermission('merchants:manage'), async (req: Request<{ id: string }>, res) => {
      const outcome = await changeMerchantStatus({ db }, auditContext(req, res), {
        merchantId: req.params.id,
        status: action === 'disable' ? 'DISABLED' : 'ACTIVE',
      });
      if (outcome === 'not_found') throw notFoundError();
      res.redirect(303, `/merchants/${req.params.id}?done=${outcome === 'changed' ? `${action}d` : 'unchanged'}`);
    });
  }

  router.post('/:id/webhook-url', requirePermission('merchants:manage'), async (req: Request<{ id: string }>, res) => {
    const webhookUrl = formField(req, 'webhook_url');
    const outcome = await changeMerchantWebhookUrl({ db }, auditContext(req, res), {
      merchantId: req.params.id,
      webhookUrl,
    });
    if (outcome === 'not_found') throw notFoundError();
    if (typeof outcome === 'object')
      return renderDetail(req, res, deps, req.params.id, { value: webhookUrl, error: outcome.error });
    res.redirect(303, `/merchants/${req.params.id}?done=${outcome === 'changed' ? 'webhook-url' : 'unchanged'}`);
  });

  router.post('/:id/invite-owner', requirePermission('merchants:manage'), async (req: Request<{ id: string }>, res) => {
    const email = formField(req, 'email');
    const context = auditContext(req, res);
    const outcome = await inviteMerchantOwner(
      deps,
      { ...context, staffId: currentStaff(res).id },
      { merchantId: req.params.id, email, locale: formField(req, 'locale') },
    );
    if (outcome === 'not_found') throw notFoundError();
    if (typeof outcome === 'object')
      return renderDetail(req, res, deps, req.params.id, undefined, { value: email, error: outcome.error });
    res.redirect(303, `/merchants/${req.params.id}?done=${outcome === 'sent' ? 'owner-invited' : 'owner-mail-failed'}`);
  });

  router.use('/:merchantId/keys', merchantKeysRouter(deps));
  return router;
}
