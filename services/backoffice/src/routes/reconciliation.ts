/**
 * `/reconciliation` (reconciliation:read, every role): the days reconciled with the operators, the cases
 * (differences waiting for a person, or resolved) and one case with both sides and its transaction's
 * timeline. Acting (reconciliation:resolve, approvers and admins): accept the operator's side, write off
 * (a reason), re-query the case's day, import an operator's statement (a CSV file, multipart).
 */
import express, { type Request, type Response, type Router } from 'express';
import Joi from 'joi';
import {
  importStatement,
  parseStaffReason,
  requeryReconciliationDay,
  resolveReconciliationCase,
  type ReconciliationRunQueue,
} from '@mm/collections';
import type { Db } from '@mm/db';
import { findReconciliationCase, listReconciliationCases, listReconciliationRuns } from '@mm/db/reconciliation';
import { listOperatorAccounts } from '@mm/db/operator-accounts';
import { transactionTimeline } from '@mm/db/payments';
import { can } from '@mm/domain';
import type { Logger } from '@mm/observability';
import { isRedisUnavailable } from '@mm/queues';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, notFoundError, PageError, isUuid, textField } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import { fileUpload, uploadedFile } from '../http/upload.js';
import { caseDetailView, casesView, importView, runsView, type AccountOption } from '../views/reconciliation.js';
import { renderPage } from '../views/render.js';
import { parseCaseFilters, parseRunFilters } from './reconciliation-filters.js';

const PAGE_SIZE = 50;
/** A statement is read into memory whole (and parsed whole): 20 MB is about 200 000 lines. */
export const MAX_STATEMENT_BYTES = 20 * 1_048_576;
/** The amount the case page said a resolution would post (its hidden `to_post`): what the person agreed to. */
const shownPostingSchema = Joi.number().integer().unsafe(false).required();
const STALE_FORM =
  'Nothing changed: this form did not say what it would post (it comes from an older page). Read the case again below and decide again.';

function shownPosting(req: Request): number | null {
  const { value, error } = shownPostingSchema.validate((req.body as Record<string, unknown> | undefined)?.to_post, {
    convert: true,
  });
  return error ? null : (value as number);
}

const NOTICES: Record<string, string> = {
  accepted: "Accepted: the operator's side is posted, against the reconciliation suspense.",
  written_off: 'Written off: the difference is posted from the reconciliation suspense to write-off.',
  requeried:
    "Queued: a reconciliation run of this case's operator account and day. No money moved; the case is updated once the run has finished.",
};

export interface ReconciliationRouterDeps {
  db: Db;
  /** Adds the reconciliation-runs jobs of a re-query or an import. */
  runs: ReconciliationRunQueue;
  logger: Logger;
}

async function accountOptions(db: Db): Promise<AccountOption[]> {
  return (await listOperatorAccounts(db)).map((a) => ({ countryCode: a.countryCode, operator: a.operator }));
}

function caseId(req: Request): string {
  const id = String(req.params.id);
  if (!isUuid(id)) throw notFoundError();
  return id.toLowerCase();
}

export function reconciliationRouter(deps: ReconciliationRouterDeps): Router {
  const { db } = deps;
  const router = express.Router();
  router.use(requirePermission('reconciliation:read'));
  const canResolve = (res: Response) => can(currentStaff(res).role, 'reconciliation:resolve');

  router.get('/', async (req, res) => {
    const filters = parseRunFilters(req.query, PAGE_SIZE);
    const [accounts, page] = await Promise.all([
      accountOptions(db),
      filters.errors.length === 0 ? listReconciliationRuns(db, filters.query) : null,
    ]);
    renderPage(req, res, {
      status: filters.errors.length > 0 ? 400 : 200,
      title: 'Reconciliation',
      body: runsView({ filters, accounts, page, canResolve: canResolve(res) }),
    });
  });

  router.get('/cases', async (req, res) => {
    const filters = parseCaseFilters(req.query, PAGE_SIZE);
    const [accounts, page] = await Promise.all([
      accountOptions(db),
      filters.errors.length === 0 ? listReconciliationCases(db, filters.query) : null,
    ]);
    renderPage(req, res, {
      status: filters.errors.length > 0 ? 400 : 200,
      title: 'Reconciliation cases',
      body: casesView({ filters, accounts, page, canResolve: canResolve(res) }),
    });
  });

  /** The case page, with a notice after an action or the reason an action was refused. */
  async function renderCase(
    req: Request,
    res: Response,
    id: string,
    extra: { notice?: string; error?: string; status?: number } = {},
  ): Promise<void> {
    const c = await findReconciliationCase(db, id);
    if (!c) throw notFoundError();
    const history = c.transactionId ? await transactionTimeline(db, c.transactionId) : null;
    renderPage(req, res, {
      status: extra.status ?? 200,
      title: `Case ${c.recordKey}`,
      body: caseDetailView({
        c,
        timeline: history ? { items: history.items, currency: history.transaction.currency } : null,
        canResolve: canResolve(res),
        csrfToken: csrfToken(req),
        ...(extra.notice ? { notice: extra.notice } : {}),
        ...(extra.error ? { error: extra.error } : {}),
      }),
    });
  }

  router.get('/cases/:id', async (req, res) => {
    const done = textField(req.query, 'done');
    await renderCase(req, res, caseId(req), done ? { notice: NOTICES[done] } : {});
  });

  router.post('/cases/:id/accept', requirePermission('reconciliation:resolve'), async (req, res) => {
    const id = caseId(req);
    const expectedToPost = shownPosting(req);
    if (expectedToPost === null) return renderCase(req, res, id, { status: 400, error: STALE_FORM });
    const outcome = await resolveReconciliationCase(deps, auditContext(req, res), id, {
      resolution: 'ACCEPTED',
      expectedToPost,
    });
    if (outcome.kind === 'resolved') return res.redirect(303, `/reconciliation/cases/${id}?done=accepted`);
    await refused(req, res, id, outcome);
  });

  router.post('/cases/:id/write-off', requirePermission('reconciliation:resolve'), async (req, res) => {
    const id = caseId(req);
    const reason = parseStaffReason((req.body as Record<string, unknown> | undefined)?.reason);
    if (reason === null)
      return renderCase(req, res, id, {
        status: 400,
        error:
          'A write-off needs a reason of 3 to 255 characters (it is kept in the case and the audit log). Nothing changed.',
      });
    const expectedToPost = shownPosting(req);
    if (expectedToPost === null) return renderCase(req, res, id, { status: 400, error: STALE_FORM });
    const outcome = await resolveReconciliationCase(deps, auditContext(req, res), id, {
      resolution: 'WRITTEN_OFF',
      reason,
      expectedToPost,
    });
    if (outcome.kind === 'resolved') return res.redirect(303, `/reconciliation/cases/${id}?done=written_off`);
    await refused(req, res, id, outcome);
  });

  async function refused(
    req: Request,
    res: Response,
    id: string,
    outcome: { kind: 'not_found' } | { kind: 'already_resolved' | 'invalid' | 'changed'; message: string },
  ): Promise<void> {
    if (outcome.kind === 'not_found') throw notFoundError();
    if (outcome.kind === 'invalid')
      return renderCase(req, res, id, { status: 400, error: `Nothing changed: ${outcome.message}.` });
    if (outcome.kind === 'changed')
      return renderCase(req, res, id, {
        status: 409,
        error: `Nothing changed: ${outcome.message}. Read the case again below and decide again.`,
      });
    return renderCase(req, res, id, {
      status: 409,
      error: `Nothing changed: ${outcome.message}. Nothing was posted again.`,
    });
  }

  router.post('/cases/:id/requery', requirePermission('reconciliation:resolve'), async (req, res) => {
    const id = caseId(req);
    let outcome;
    try {
      outcome = await requeryReconciliationDay(deps, auditContext(req, res), id);
    } catch (err) {
      if (isRedisUnavailable(err))
        throw new PageError(503, 'The queue did not answer: nothing was queued. Try again in a moment.');
      throw err;
    }
    if (outcome.kind === 'not_found') throw notFoundError();
    res.redirect(303, `/reconciliation/cases/${id}?done=requeried`);
  });

  router.get('/import', requirePermission('reconciliation:resolve'), async (req, res) => {
    renderPage(req, res, {
      title: "Import an operator's statement",
      body: importView({
        accounts: await accountOptions(db),
        csrfToken: csrfToken(req),
        account: textField(req.query, 'account') ?? '',
        maxMegabytes: MAX_STATEMENT_BYTES / 1_048_576,
      }),
    });
  });

  // The file is read (multer) only after the login and permission checks, then the form's CSRF token is
  // checked (http/upload.ts; csrf.ts leaves this multipart POST to it), then the handler runs.
  router.post(
    '/import',
    requirePermission('reconciliation:resolve'),
    ...fileUpload({ field: 'statement', maxBytes: MAX_STATEMENT_BYTES }),
    async (req, res) => {
      const accounts = await accountOptions(db);
      const chosen = textField(req.body, 'account') ?? '';
      const page = (status: number, more: Partial<Parameters<typeof importView>[0]>) =>
        renderPage(req, res, {
          status,
          title: "Import an operator's statement",
          body: importView({
            accounts,
            csrfToken: csrfToken(req),
            account: chosen,
            maxMegabytes: MAX_STATEMENT_BYTES / 1_048_576,
            ...more,
          }),
        });
      const account = accounts.find((a) => `${a.countryCode}:${a.operator}` === chosen);
      if (!account)
        return page(400, { error: 'Choose the operator account the statement is from. Nothing was imported.' });
      const file = uploadedFile(req);
      if (!file || file.bytes.length === 0)
        return page(400, { error: 'Choose the statement file (CSV). Nothing was imported.' });
      const outcome = await importStatement(deps, auditContext(req, res), account, file, (err, date) => {
        deps.logger.warn(
          { err, country_code: account.countryCode, operator: account.operator, date },
          'reconciliation run not queued after a statement import',
        );
      });
      page(outcome.kind === 'refused' ? 400 : 200, { outcome });
    },
  );

  return router;
}
