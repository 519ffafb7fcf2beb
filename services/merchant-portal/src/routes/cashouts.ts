/**
 * `/cashouts` (cashouts:request): the merchant's cash-outs, searched by a GET form and paged newest first,
 * with the request form where disbursement is on; `POST /cashouts` (a fresh two-factor code):
 * requestCashout, as POST /v1/payments/cashout; `/cashouts/:id`: one cash-out. Every read and change names
 * the signed-in user's merchant: another merchant's cash-out is a 404.
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { requestCashout, routableAccounts, type RequestCashoutDeps } from '@mm/collections';
import type { CashoutRules } from '@mm/config';
import type { Transaction } from '@mm/db';
import { balancesOf } from '@mm/db/ledger';
import { findActiveSubsidiary } from '@mm/db/merchants';
import { merchantPaymentDetail, searchMerchantPayments } from '@mm/db/payments';
import { DomainError, routeOperator, type DeploymentMode } from '@mm/domain';
import type { AfterCommit } from '@mm/queues';
import { amount, csrfToken, formField, isUuid, notFoundError } from '@mm/web';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { cashoutsText } from '../i18n/cashouts.js';
import { paymentsText } from '../i18n/payments.js';
import { confirmStepUp, type StepUpDeps } from '../use-cases/step-up.js';
import { cashoutDetailView } from '../views/cashout-detail.js';
import { cashoutsView, type CashoutFormState } from '../views/cashouts.js';
import { renderPage } from '../views/render.js';
import { parseCashoutFilters } from './cashouts-filters.js';
import {
  cashoutFormValues,
  cashoutRefusal,
  parseCashoutForm,
  portalCashoutOrderId,
  portalCashoutSignatureHash,
} from './cashouts-form.js';
import type { RouteRule } from './route-rules.js';

export const CASHOUTS_ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/cashouts', permission: 'cashouts:request' },
  { method: 'POST', path: '/cashouts', permission: 'cashouts:request' },
  { method: 'GET', path: '/cashouts/:id', permission: 'cashouts:request' },
];

const PAGE_SIZE = 50;

export interface CashoutsRouterDeps extends StepUpDeps {
  afterCommit: AfterCommit;
  cashoutRules: CashoutRules;
  deploymentMode: DeploymentMode;
}

/** requestCashout's dependencies as the gateway builds them, read from the database on each request. */
function useCaseDeps(deps: CashoutsRouterDeps): RequestCashoutDeps {
  const rules = deps.cashoutRules;
  return {
    db: deps.db,
    afterCommit: deps.afterCommit,
    limits: rules.limits,
    disbursementEnabled: rules.disbursementEnabled,
    approvalRule: rules.approvalRule,
    isActiveCountry: async (code) => (await findActiveSubsidiary(deps.db, code)) !== null,
    operators: {
      route: async (countryCode, e164, requested) =>
        routeOperator(await routableAccounts(deps.db, countryCode), e164, requested, deps.deploymentMode),
      unavailableRetryAfterS: rules.unavailableRetryAfterS,
    },
  };
}

export function cashoutsRouter(deps: CashoutsRouterDeps): Router {
  const router = express.Router();
  const cashouts = useCaseDeps(deps);
  const enabled = deps.cashoutRules.disbursementEnabled;

  const blankForm = (): CashoutFormState => ({
    // A new key per rendering of a blank form: each one asks for at most one cash-out.
    idempotencyKey: randomUUID(),
    beneficiary: '',
    amount: '',
    reason: '',
    operator: '',
  });

  const showList = async (req: Request, res: Response, opts: { status?: number; form?: CashoutFormState } = {}) => {
    const user = currentUser(res);
    const locale = localeOfResponse(res);
    const m = cashoutsText(locale);
    const p = paymentsText(locale);
    // A POST shows the form again above the newest cash-outs, whatever the address searched before.
    const filters = parseCashoutFilters(req.method === 'GET' ? req.query : {}, p);
    const [countries, balances, page] = await Promise.all([
      deps.db.subsidiary.findMany({
        select: { countryCode: true, countryName: true },
        orderBy: { countryCode: 'asc' },
      }),
      balancesOf(deps.db, user.merchantId),
      filters.errors.length === 0
        ? searchMerchantPayments(deps.db, user.merchantId, filters.search, { limit: PAGE_SIZE, after: filters.after })
        : null,
    ]);
    const status = opts.status ?? (filters.errors.length > 0 ? 400 : 200);
    renderPage(req, res, {
      status,
      title: m.title,
      body: cashoutsView(m, p, {
        enabled,
        balances,
        csrfToken: csrfToken(req),
        form: opts.form ?? blankForm(),
        filters,
        countries,
        page,
      }),
    });
  };

  router.get('/', requirePermission('cashouts:request'), (req, res) => showList(req, res));

  /** The user's merchant's cash-out with this order id, if this form already made one. */
  const madeBy = (merchantId: string, formKey: string) =>
    deps.db.transaction.findUnique({
      where: { merchantId_merchantOrderId: { merchantId, merchantOrderId: portalCashoutOrderId(formKey) } },
      select: { id: true, type: true },
    });

  router.post('/', requirePermission('cashouts:request'), async (req, res) => {
    const user = currentUser(res);
    const m = cashoutsText(localeOfResponse(res));
    const again = (status: number, error: string) =>
      showList(req, res, { status, form: { ...cashoutFormValues(req), error } });
    const shown = (id: string, sentBefore: boolean) =>
      res.redirect(303, `/cashouts/${id}?${sentBefore ? 'again=1' : 'requested=1'}`);

    const parsed = parseCashoutForm(req, m);
    if (!parsed.ok) return again(400, parsed.error);
    // Off for the whole service (DISBURSEMENT_ENABLED): after the form is read, as the API answers its 501
    // after validation, and before any code is spent on a cash-out that cannot be.
    if (!enabled) return again(501, m.errDisabled);
    const { body, formKey } = parsed.form;
    // The same form sent again (a double click, the back button) shows its cash-out, code or no code.
    const earlier = await madeBy(user.merchantId, formKey);
    if (earlier?.type === 'CASHOUT') return shown(earlier.id, true);

    const context = requestContext(req, res);
    const stepUp = await confirmStepUp(deps, user, formField(req, 'code'), 'cashout', context);
    if (stepUp === 'no_two_factor') return again(403, m.errNoTwoFactor);
    if (stepUp === 'wrong_code') return again(401, m.errWrongCode);

    let made: { replayed: boolean; transaction: Transaction };
    try {
      made = await requestCashout(
        cashouts,
        user.merchantId,
        body,
        portalCashoutSignatureHash(user.merchantId, formKey),
        (t) => ({
          staffId: null,
          actor: user.email,
          action: 'portal.cashout.requested',
          targetType: 'transaction',
          targetId: t.id,
          merchantId: user.merchantId,
          merchantUserId: user.id,
          ...context,
          after: {
            merchant_order_id: t.merchantOrderId,
            amount: Number(t.amount),
            currency: t.currency,
            country_code: t.countryCode,
            operator: t.operator,
            reason: t.motif,
            status: t.status,
          },
        }),
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // The same form raced in twice: the first one's cash-out is the answer.
      if (err.code === 'REQUEST_REPLAYED') {
        const first = await madeBy(user.merchantId, formKey);
        if (first) return shown(first.id, true);
      }
      const refusal = cashoutRefusal(err, m, deps.cashoutRules.limits);
      return again(refusal.status, refusal.message);
    }
    const t = made.transaction;
    if (made.replayed) return shown(t.id, true);
    shown(t.id, false);
  });

  router.get('/:id', requirePermission('cashouts:request'), async (req, res) => {
    const user = currentUser(res);
    const m = cashoutsText(localeOfResponse(res));
    const id = req.params.id;
    const detail =
      typeof id === 'string' && isUuid(id)
        ? await merchantPaymentDetail(deps.db, user.merchantId, id.toLowerCase())
        : null;
    // A cash-in is a payment, not a cash-out: its page is /payments/:id.
    if (!detail || detail.transaction.type !== 'CASHOUT') throw notFoundError();
    const notice = req.query.again === '1' ? m.alreadySent : req.query.requested === '1' ? m.requested : undefined;
    renderPage(req, res, {
      title: `${m.cashout} ${amount(detail.transaction.amount, detail.transaction.currency)}`,
      body: cashoutDetailView(m, detail, notice),
    });
  });

  return router;
}
