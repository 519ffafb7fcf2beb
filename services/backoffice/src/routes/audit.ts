/** `/audit` (audit:read, admin only): the staff audit log, newest first, filtered by target and actor. */
import express, { type Router } from 'express';
import type { Db } from '@mm/db';
import { listAudit, type AuditQuery } from '@mm/db/staff';
import { requirePermission } from '../auth/guard.js';
import { textField } from '@mm/web';
import { auditView, type AuditFilterForm } from '../views/audit.js';
import { renderPage } from '../views/render.js';

const PAGE_SIZE = 50;
const KEYS = ['target_type', 'target_id', 'actor'] as const;

export function auditRouter({ db }: { db: Db }): Router {
  const router = express.Router();
  router.use(requirePermission('audit:read'));

  router.get('/', async (req, res) => {
    const errors: string[] = [];
    const form = {} as AuditFilterForm;
    for (const key of KEYS) {
      const value = textField(req.query, key);
      if (value === null || value.length > 254) errors.push(`The field "${key}" is not valid.`);
      form[key] = value ?? '';
    }
    const before = textField(req.query, 'before');
    // The keyset cursor is an id from our own "Older" link; anything else is a damaged link.
    if (before === null || (before !== '' && !/^\d{1,19}$/.test(before)))
      errors.push('The page link is damaged: start again.');

    const query: AuditQuery = {
      limit: PAGE_SIZE,
      ...(before ? { beforeId: before } : {}),
      ...(form.target_type ? { targetType: form.target_type } : {}),
      ...(form.target_id ? { targetId: form.target_id } : {}),
      ...(form.actor ? { actor: form.actor } : {}),
    };
    const page = errors.length === 0 ? await listAudit(db, query) : null;
    const filters = Object.fromEntries(KEYS.filter((k) => form[k]).map((k) => [k, form[k]]));
    renderPage(req, res, {
      status: errors.length > 0 ? 400 : 200,
      title: 'Audit log',
      body: auditView({
        form,
        errors,
        entries: page?.entries ?? null,
        olderQuery: page?.nextBeforeId
          ? new URLSearchParams({ ...filters, before: page.nextBeforeId.toString() }).toString()
          : null,
        paged: Boolean(before),
        newestQuery: new URLSearchParams(filters).toString(),
      }),
    });
  });

  return router;
}
