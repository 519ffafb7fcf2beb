/**
 * `/staff` (staff:manage): the staff accounts, disable and enable. The shape of every area router:
 * mounted at its own path in app.ts, `requirePermission` first, thin handlers that call a use case
 * (which writes its audit row in the same transaction) and redirect after a POST.
 */
import express, { type Router } from 'express';
import { changeStaffAccess } from '@mm/collections';
import type { Db } from '@mm/db';
import { listStaff } from '@mm/db/staff';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, notFoundError, PageError } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import { renderPage } from '../views/render.js';
import { staffListView } from '../views/staff.js';

const NOTICES: Record<string, string> = { disabled: 'The account is disabled.', enabled: 'The account is enabled.' };

export function staffRouter({ db }: { db: Db }): Router {
  const router = express.Router();
  router.use(requirePermission('staff:manage'));

  router.get('/', async (req, res) => {
    const notice = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    renderPage(req, res, {
      title: 'Staff',
      body: staffListView({ members: await listStaff(db), me: currentStaff(res), csrfToken: csrfToken(req), notice }),
    });
  });

  router.post('/:id/:action', async (req, res) => {
    const { id, action } = req.params;
    if (action !== 'disable' && action !== 'enable') throw notFoundError();
    const outcome = await changeStaffAccess({ db }, auditContext(req, res), {
      staffId: id,
      disabled: action === 'disable',
    });
    if (outcome === 'not_found') throw notFoundError();
    if (outcome === 'self') throw new PageError(400, 'You cannot disable your own account.');
    res.redirect(303, `/staff?done=${action}d`);
  });

  return router;
}
