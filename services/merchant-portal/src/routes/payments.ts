/**
 * `/payments` (payments:read): the merchant's cash-ins and cash-outs, searched by a GET form and paged
 * newest first; `/payments/:id`: one payment with its history, refunds and webhooks; and
 * `POST /payments/:id/refund` (refunds:create, a fresh two-factor code): requestRefund, as POST /v1/refunds.
 * Every read and change names the signed-in user's merchant: another merchant's payment is a 404.
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { requestRefund, type RequestRefundDeps } from '@mm/collections';
import {
  findRefundByIdempotencyKey,
  merchantPaymentDetail,
  type MerchantPaymentDetail,
  searchMerchantPayments,
} from '@mm/db/payments';
import { DomainError, merchantCan } from '@mm/domain';
import { csrfToken, formField, isUuid, notFoundError } from '@mm/web';
import type { MerchantUserAccount } from '@mm/db/merchant-users';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { paymentsText } from '../i18n/payments.js';
import { confirmStepUp, type StepUpDeps } from '../use-cases/step-up.js';
import { paymentDetailView, type RefundFormState } from '../views/payment-detail.js';
import { paymentsView } from '../views/payments.js';
import { renderPage } from '../views/render.js';
import { parsePaymentFilters } from './payments-filters.js';
import {
  parseRefundForm,
  portalIdempotencyKey,
  portalSignatureHash,
  refundFormValues,
  refundRefusal,
} from './payments-refund.js';
import type { RouteRule } from './route-rules.js';

export const PAYMENTS_ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/payments', permission: 'payments:read' },
  { method: 'GET', path: '/payments/:id', permission: 'payments:read' },
  { method: 'POST', path: '/payments/:id/refund', permission: 'refunds:create' },
];

const PAGE_SIZE = 50;

export type PaymentsRouterDeps = StepUpDeps & RequestRefundDeps;

export function paymentsRouter(deps: PaymentsRouterDeps): Router {
  const router = express.Router();

  router.get('/payments', requirePermission('payments:read'), async (req, res) => {
    const user = currentUser(res);
    const m = paymentsText(localeOfResponse(res));
    const filters = parsePaymentFilters(req.query, m);
    const [countries, page] = await Promise.all([
      deps.db.subsidiary.findMany({
        select: { countryCode: true, countryName: true },
        orderBy: { countryCode: 'asc' },
      }),
      filters.errors.length === 0
        ? searchMerchantPayments(deps.db, user.merchantId, filters.search, { limit: PAGE_SIZE, after: filters.after })
        : null,
    ]);
    renderPage(req, res, {
      status: filters.errors.length > 0 ? 400 : 200,
      title: m.title,
      body: paymentsView(m, { filters, countries, page }),
    });
  });

  /** The payment of the user's merchant, or a 404 (unknown, malformed, or another merchant's id). */
  const paymentOf = async (user: MerchantUserAccount, id: unknown) => {
    const detail =
      typeof id === 'string' && isUuid(id)
        ? await merchantPaymentDetail(deps.db, user.merchantId, id.toLowerCase())
        : null;
    if (!detail) throw notFoundError();
    return detail;
  };

  const show = (
    req: Request,
    res: Response,
    detail: MerchantPaymentDetail,
    opts: { status?: number; refundForm?: RefundFormState; notice?: string } = {},
  ) => {
    const user = currentUser(res);
    const m = paymentsText(localeOfResponse(res));
    renderPage(req, res, {
      ...(opts.status ? { status: opts.status } : {}),
      title: `${m.payment} ${detail.transaction.merchantOrderId}`,
      body: paymentDetailView(m, {
        detail,
        canRefund: merchantCan(user.role, 'refunds:create'),
        csrfToken: csrfToken(req),
        // A new key per rendering of a blank form: each one asks for at most one refund.
        refundForm: opts.refundForm ?? { idempotencyKey: randomUUID(), amount: '', reason: '' },
        ...(opts.notice ? { notice: opts.notice } : {}),
      }),
    });
  };

  router.get('/payments/:id', requirePermission('payments:read'), async (req, res) => {
    const m = paymentsText(localeOfResponse(res));
    // After a refund (PRG): the notice names a refund of this payment only, never a text from the URL.
    const refundId = typeof req.query.refund === 'string' ? req.query.refund : '';
    const detail = await paymentOf(currentUser(res), req.params.id);
    const shown = isUuid(refundId) && detail.refunds.some((r) => r.id === refundId.toLowerCase());
    show(req, res, detail, shown ? { notice: req.query.again === '1' ? m.refundAlreadySent : m.refundRequested } : {});
  });

  router.post('/payments/:id/refund', requirePermission('refunds:create'), async (req, res) => {
    const user = currentUser(res);
    const m = paymentsText(localeOfResponse(res));
    const detail = await paymentOf(user, req.params.id);
    const id = detail.transaction.id;
    const again = (status: number, error: string, shown = detail) =>
      show(req, res, shown, { status, refundForm: { ...refundFormValues(req), error } });
    const sentBefore = (refundId: string) => res.redirect(303, `/payments/${id}?refund=${refundId}&again=1`);

    const parsed = parseRefundForm(req, id, m);
    if (!parsed.ok) return again(400, parsed.error);
    const { body, formKey } = parsed.form;
    const idempotencyKey = portalIdempotencyKey(formKey);
    // The same form sent again (a double click, the back button) shows its refund, code or no code:
    // nothing is asked of the use case, and each code is accepted once anyway.
    const earlier = await findRefundByIdempotencyKey(deps.db, user.merchantId, idempotencyKey);
    if (earlier && earlier.transactionId === id) return sentBefore(earlier.id);

    const context = requestContext(req, res);
    const stepUp = await confirmStepUp(deps, user, formField(req, 'code'), 'refund', context);
    if (stepUp === 'no_two_factor') return again(403, m.errNoTwoFactor);
    if (stepUp === 'wrong_code') return again(401, m.errWrongCode);

    let refund: { replayed: boolean; record: Record<string, unknown> };
    try {
      refund = await requestRefund(
        deps,
        user.merchantId,
        body,
        idempotencyKey,
        portalSignatureHash(user.merchantId, formKey),
        (created) => ({
          staffId: null,
          actor: user.email,
          action: 'portal.refund.requested',
          targetType: 'refund',
          targetId: created.id,
          merchantId: user.merchantId,
          merchantUserId: user.id,
          ...context,
          after: {
            transaction_id: id,
            amount: Number(created.amount),
            reason: created.reason,
            status: created.status,
          },
        }),
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'NOT_FOUND') throw notFoundError();
      // The same form raced in twice: the first one's refund is the answer.
      if (err.code === 'REQUEST_REPLAYED') {
        const first = await findRefundByIdempotencyKey(deps.db, user.merchantId, idempotencyKey);
        if (first) return sentBefore(first.id);
      }
      // Read again: the page shows what refused it (a refund paid meanwhile, the status it is in now).
      const current = await paymentOf(user, id);
      const refusal = refundRefusal(err, m, current.transaction);
      return again(refusal.status, refusal.message, current);
    }
    const refundId = String(refund.record.refund_id);
    if (refund.replayed) return sentBefore(refundId);
    res.redirect(303, `/payments/${id}?refund=${refundId}`);
  });

  return router;
}
