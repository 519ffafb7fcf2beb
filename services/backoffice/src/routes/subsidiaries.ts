/**
 * `/subsidiaries`: the country subsidiaries, readable with merchants:read (every role: no permission of
 * its own to read them); activate/deactivate need subsidiaries:manage (admin). POSTs redirect (303).
 */
import express, { type Request, type Router } from 'express';
import { changeSubsidiaryActive } from '@mm/collections';
import type { Db } from '@mm/db';
import { listSubsidiaries } from '@mm/db/merchants';
import { can } from '@mm/domain';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, notFoundError } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import { renderPage } from '../views/render.js';
import { subsidiaryListView } from '../views/subsidiaries.js';

const NOTICES: Record<string, string> = {
  activated: 'The subsidiary is active: payments in its country are accepted.',
  deactivated: 'The subsidiary is inactive: new payments in its country are refused.',
  unchanged: 'Nothing changed: it already was so.',
};

export function subsidiariesRouter({ db }: { db: Db }): Router {
  const router = express.Router();
  router.use(requirePermission('merchants:read'));

  router.get('/', async (req, res) => {
    const notice = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    renderPage(req, res, {
      title: 'Subsidiaries',
      body: subsidiaryListView({
        subsidiaries: await listSubsidiaries(db),
        canManage: can(currentStaff(res).role, 'subsidiaries:manage'),
        csrfToken: csrfToken(req),
        notice,
      }),
    });
  });

  for (const action of ['activate', 'deactivate'] as const) {
    router.post(
      `/:countryCode/${action}`,
      requirePermission('subsidiaries:manage'),
      async (req: Request<{ countryCode: string }>, res) => {
        const { countryCode } = req.params;
        if (!/^[A-Z]{2}$/.test(countryCode)) throw notFoundError();
        const outcome = await changeSubsidiaryActive({ db }, auditContext(req, res), {
          countryCode,
          active: action === 'activate',
        });
        if (outcome === 'not_found') throw notFoundError();
        res.redirect(303, `/subsidiaries?done=${outcome === 'changed' ? `${action}d` : 'unchanged'}`);
      },
    );
  }

  return router;
}
