/**
 * `/webhooks` (webhooks:read): deliveries that need a look, abandoned or failing; POST /webhooks/resend
 * (webhooks:resend) re-sends abandoned ones, one or many, from this page or a transaction's page.
 */
import express, { type Router } from 'express';
import { resendWebhooks, type ResendWebhooksDeps } from '@mm/collections';
import { can } from '@mm/domain';
import { listProblemDeliveries } from '@mm/db/webhooks';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, PageError, isUuid, listField, textField } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import { renderPage } from '../views/render.js';
import { resendNotice, webhooksView } from '../views/webhooks.js';

/** Rows per list; also bounds one bulk re-send (the form parser takes 100 fields at most). */
const LIMIT = 50;

/** Where a re-send returns: the list it came from or a transaction's page, never an arbitrary URL. */
function backTo(value: string | null): string {
  if (
    value &&
    (/^\/webhooks\?problem=(abandoned|failing)$/.test(value) || /^\/transactions\/[0-9a-f-]{36}$/.test(value))
  )
    return value;
  return '/webhooks?problem=abandoned';
}

/** The notice after a re-send's redirect (`?resent=2&skipped=1`). */
export function noticeFromQuery(query: unknown): string | undefined {
  const resent = textField(query, 'resent');
  const skipped = textField(query, 'skipped');
  if (!resent || !/^\d{1,3}$/.test(resent)) return undefined;
  return resendNotice(Number(resent), skipped && /^\d{1,3}$/.test(skipped) ? Number(skipped) : 0);
}

export function webhooksRouter(deps: ResendWebhooksDeps): Router {
  const router = express.Router();
  router.use(requirePermission('webhooks:read'));

  router.get('/', async (req, res) => {
    const problem = textField(req.query, 'problem') || 'abandoned';
    if (problem !== 'abandoned' && problem !== 'failing')
      throw new PageError(400, 'There are two lists: problem=abandoned and problem=failing.');
    renderPage(req, res, {
      title: 'Webhooks',
      body: webhooksView({
        problem,
        deliveries: await listProblemDeliveries(deps.db, { problem, limit: LIMIT }),
        limit: LIMIT,
        canResend: can(currentStaff(res).role, 'webhooks:resend'),
        csrfToken: csrfToken(req),
        notice: noticeFromQuery(req.query),
      }),
    });
  });

  router.post('/resend', requirePermission('webhooks:resend'), async (req, res) => {
    const ids = [...new Set(listField(req.body, 'event_id').map((id) => id.trim().toLowerCase()))];
    if (ids.length === 0) throw new PageError(400, 'Select at least one delivery to re-send.');
    if (ids.length > LIMIT) throw new PageError(400, `At most ${LIMIT} deliveries can be re-sent at once.`);
    if (!ids.every(isUuid)) throw new PageError(400, 'Unknown delivery.');
    const { resent, skipped } = await resendWebhooks(deps, auditContext(req, res), ids);
    const back = backTo(textField(req.body, 'back'));
    res.redirect(303, `${back}${back.includes('?') ? '&' : '?'}resent=${resent.length}&skipped=${skipped.length}`);
  });

  return router;
}
