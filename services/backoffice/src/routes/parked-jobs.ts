/**
 * `/jobs/parked` (jobs:read): outbox jobs parked after failing every run for an unknown reason;
 * POST /jobs/parked/run-again (jobs:rerun, admin) runs them again, one or many.
 */
import express, { type Router } from 'express';
import { runParkedJobsAgain } from '@mm/collections';
import { can } from '@mm/domain';
import { countParkedJobs } from '@mm/db/outbox';
import { type Db } from '@mm/db';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, PageError, isUuid, listField, textField } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import { parkedJobsView, runAgainNotice } from '../views/parked-jobs.js';
import { renderPage } from '../views/render.js';
import { parkedJobsWithTargets } from './parked-job-targets.js';

/** Rows per page; also bounds one bulk run (the form parser takes 100 fields at most). */
const LIMIT = 50;

/** The notice after a run's redirect (`?ran=2&skipped=1`). */
export function noticeFromQuery(query: unknown): string | undefined {
  const ran = textField(query, 'ran');
  const skipped = textField(query, 'skipped');
  if (!ran || !/^\d{1,3}$/.test(ran)) return undefined;
  return runAgainNotice(Number(ran), skipped && /^\d{1,3}$/.test(skipped) ? Number(skipped) : 0);
}

export function parkedJobsRouter(deps: { db: Db }): Router {
  const router = express.Router();
  router.use(requirePermission('jobs:read'));

  router.get('/', async (req, res) => {
    const { role } = currentStaff(res);
    const [jobs, counts] = await Promise.all([parkedJobsWithTargets(deps.db, LIMIT), countParkedJobs(deps.db)]);
    renderPage(req, res, {
      title: 'Parked jobs',
      body: parkedJobsView({
        jobs,
        counts,
        limit: LIMIT,
        canRerun: can(role, 'jobs:rerun'),
        canOpenDashboard: can(role, 'queues:dashboard'),
        csrfToken: csrfToken(req),
        notice: noticeFromQuery(req.query),
      }),
    });
  });

  router.post('/run-again', requirePermission('jobs:rerun'), async (req, res) => {
    const ids = [...new Set(listField(req.body, 'outbox_id').map((id) => id.trim().toLowerCase()))];
    if (ids.length === 0) throw new PageError(400, 'Select at least one job to run again.');
    if (ids.length > LIMIT) throw new PageError(400, `At most ${LIMIT} jobs can be run again at once.`);
    if (!ids.every(isUuid)) throw new PageError(400, 'Unknown job.');
    const { ran, skipped } = await runParkedJobsAgain(deps, auditContext(req, res), ids);
    res.redirect(303, `/jobs/parked?ran=${ran.length}&skipped=${skipped.length}`);
  });

  return router;
}
