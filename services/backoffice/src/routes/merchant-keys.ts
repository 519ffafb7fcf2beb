/**
 * `/merchants/:merchantId/keys` (keys:manage, admin): create, rotate, revoke a merchant's API keys.
 * Mounted by the merchants router, behind its merchants:read. Create and rotate answer with the page
 * showing the new secret, once (never a redirect: the secret is kept nowhere to be shown later).
 */
import express, { type Request, type Router } from 'express';
import {
  createMerchantApiKey,
  isRotationGrace,
  revokeMerchantApiKey,
  ROTATION_GRACE_S,
  rotateMerchantApiKey,
  type KeyDeps,
  type RotationGraceS,
} from '@mm/collections';
import { findMerchant, type MerchantSummary } from '@mm/db/merchants';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { formField, notFoundError, PageError } from '@mm/web';
import type { GraceOption } from '../views/merchant-detail.js';
import { issuedKeyView } from '../views/issued-key.js';
import { renderPage } from '../views/render.js';

// A Record over the allowed values: adding a grace period to the use case without a label fails to compile.
const GRACE_LABELS: Record<RotationGraceS, string> = {
  0: 'no grace: stops now',
  3600: '1 hour',
  86_400: '24 hours',
  604_800: '7 days',
};

/** The choices of the rotate form: exactly the values the use case accepts. */
export const GRACE_OPTIONS: readonly GraceOption[] = ROTATION_GRACE_S.map((seconds) => ({
  seconds,
  label: GRACE_LABELS[seconds],
}));

export function merchantKeysRouter({ db, box, now }: KeyDeps & { now(): number }): Router {
  // mergeParams: :merchantId is in the mount path (routes/merchants.ts).
  const router = express.Router({ mergeParams: true });
  router.use(requirePermission('keys:manage'));

  async function merchantOf(req: Request): Promise<MerchantSummary> {
    const merchant = await findMerchant(db, (req.params as Record<string, string | undefined>).merchantId ?? '');
    if (!merchant) throw notFoundError();
    return merchant;
  }

  router.post('/', async (req, res) => {
    const merchant = await merchantOf(req);
    const key = await createMerchantApiKey({ db, box }, auditContext(req, res), { merchantId: merchant.id });
    if (key === 'not_found') throw notFoundError();
    renderPage(req, res, {
      status: 201,
      title: 'New API key',
      body: issuedKeyView({ heading: 'New API key', merchant, key }),
    });
  });

  router.post('/:apiKey/rotate', async (req: Request<{ apiKey: string }>, res) => {
    const merchant = await merchantOf(req);
    const field = formField(req, 'grace_s');
    const graceS = /^\d{1,7}$/.test(field) ? Number(field) : Number.NaN;
    if (!isRotationGrace(graceS))
      throw new PageError(400, 'Choose how long the old key keeps working: no grace, 1 hour, 24 hours or 7 days.');
    const at = new Date(now());
    const outcome = await rotateMerchantApiKey({ db, box }, auditContext(req, res), {
      merchantId: merchant.id,
      apiKey: req.params.apiKey,
      graceS,
      now: at,
    });
    if (outcome === 'not_found') throw notFoundError();
    if (outcome === 'not_active')
      throw new PageError(
        409,
        'Only an active key can be rotated; this one is revoked or already being replaced (revoke it instead).',
      );
    renderPage(req, res, {
      status: 201,
      title: 'Key rotated',
      body: issuedKeyView({
        heading: 'Key rotated',
        merchant,
        key: outcome.key,
        rotation: { oldApiKey: outcome.oldApiKey, oldExpiresAt: outcome.oldExpiresAt, now: at },
      }),
    });
  });

  router.post('/:apiKey/revoke', async (req: Request<{ apiKey: string }>, res) => {
    const merchant = await merchantOf(req);
    const outcome = await revokeMerchantApiKey({ db }, auditContext(req, res), {
      merchantId: merchant.id,
      apiKey: req.params.apiKey,
      now: new Date(now()),
    });
    if (outcome === 'not_found') throw notFoundError();
    res.redirect(303, `/merchants/${merchant.id}?done=${outcome === 'changed' ? 'revoked' : 'unchanged'}`);
  });

  return router;
}
