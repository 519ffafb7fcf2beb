/**
 * `/cashouts` (cashouts:read): cash-outs waiting for approval; approve / reject (cashouts:decide).
 */
import express, { type Router } from 'express';
import { decideCashout, parseStaffReason, type DecideCashoutDeps } from '@mm/collections';
import { can, isUuid } from '@mm/domain';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, notFoundError, PageError } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import { cashoutsView } from '../views/cashouts.js';
import { renderPage } from '../views/render.js';

const NOTICES: Record<string, string> = {
  approved: 'Approved: the cash-out is sent to the operator.',
  rejected: 'Rejected: the cash-out failed and its reservation is released.',
};

export function cashoutsRouter(deps: DecideCashoutDeps): Router {
  const router = express.Router();
  router.use(requirePermission('cashouts:read'));

  router.get('/', async (req, res) => {
    const awaiting = await deps.db.transaction.findMany({
      where: { type: 'CASHOUT', status: 'AWAITING_APPROVAL' },
      orderBy: { createdAt: 'asc' },
      take: 200,
      include: { merchant: { select: { name: true } } },
    });
    const done = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    renderPage(req, res, {
      title: 'Cash-out approvals',
      body: cashoutsView({
        awaiting,
        canDecide: can(currentStaff(res).role, 'cashouts:decide'),
        csrfToken: csrfToken(req),
        notice: done,
      }),
    });
  });

  router.post('/:id/:decision', requirePermission('cashouts:decide'), async (req, res) => {
    const id = String(req.params.id);
    const decision = String(req.params.decision);
    if ((decision !== 'approve' && decision !== 'reject') || !isUuid(id)) throw notFoundError();
    let verdict: { decision: 'approve' } | { decision: 'reject'; reason: string } = { decision: 'approve' };
    if (decision === 'reject') {
      const reason = parseStaffReason((req.body as Record<string, unknown>).reason);
      if (reason === null)
        throw new PageError(400, 'A rejection needs a reason of 3 to 255 characters: the merchant receives it.');
      verdict = { decision: 'reject', reason };
    }
    const outcome = await decideCashout(deps, auditContext(req, res), id, verdict);
    if (outcome.kind === 'not_found') throw notFoundError();
    if (outcome.kind === 'already_decided') {
      throw new PageError(409, `Nothing changed: ${outcome.message}.`);
    }
    res.redirect(303, `/cashouts?done=${decision === 'approve' ? 'approved' : 'rejected'}`);
  });

  return router;
}
