/**
 * `/links` (payments:read): the merchant's payment links, newest first, filtered by status in the
 * address and paged by keyset (listMerchantPaymentLinks, as GET /v1/payment-links); `/links/:id`: one
 * link with its address, QR code (inline SVG; PNG and SVG downloads served here), terms, totals and
 * newest payments. `/links/new` and `POST /links` (links:manage): createPaymentLink, as
 * POST /v1/payment-links; `POST /links/:id/deactivate` (links:manage): deactivatePaymentLink. No fresh
 * code: no money leaves. Every read and change names the signed-in user's merchant: another merchant's
 * link is a 404, and nothing changes.
 */
import express, { type Request, type Response, type Router } from 'express';
import { createPaymentLink, type CreatePaymentLinkDeps, type PaymentLinkBody } from '@mm/collections';
import type { CashoutRules } from '@mm/config';
import type { Db } from '@mm/db';
import { findActiveSubsidiary, listActiveSubsidiaries } from '@mm/db/merchants';
import {
  deactivatePaymentLink,
  findMerchantPaymentLink,
  listLinkPayments,
  listMerchantPaymentLinks,
  type PaymentLinkRecord,
} from '@mm/db/payment-links';
import {
  DomainError,
  isUuid,
  merchantCan,
  PAYMENT_LINK_STATUSES,
  paymentLinkUrl,
  type PaymentLinkStatus,
} from '@mm/domain';
import { csrfToken, notFoundError } from '@mm/web';
import { qrCodePng, qrCodeSvg, QR_PNG_CONTENT_TYPE, QR_SVG_CONTENT_TYPE } from '@mm/web/qr-code';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { linksText } from '../i18n/links.js';
import { linkDetailView, linkFormView, linksListView } from '../views/links.js';
import { renderPage } from '../views/render.js';
import {
  blankLinkForm,
  portalLinkKey,
  linkFormValues,
  linkRefusal,
  parseLinkForm,
  type LinkFormErrors,
  type LinkFormValues,
} from './links-form.js';
import type { RouteRule } from './route-rules.js';

export const LINKS_ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/links', permission: 'payments:read' },
  { method: 'POST', path: '/links', permission: 'links:manage' },
  { method: 'GET', path: '/links/new', permission: 'links:manage' },
  { method: 'GET', path: '/links/:id', permission: 'payments:read' },
  { method: 'GET', path: '/links/:id/qr.png', permission: 'payments:read' },
  { method: 'GET', path: '/links/:id/qr.svg', permission: 'payments:read' },
  { method: 'POST', path: '/links/:id/deactivate', permission: 'links:manage' },
];

const PAGE_SIZE = 50;
/** The newest payments a link's page shows; the rest are in the payments list and the export. */
const PAYMENTS_SHOWN = 50;

export interface LinksRouterDeps {
  db: Db;
  /** GATEWAY_PUBLIC_URL: where the customer's page of a link is. */
  gatewayPublicUrl: string;
  /** The API's amount bounds (AMOUNT_MIN, AMOUNT_MAX), a link's as a cash-out's. */
  cashoutRules: CashoutRules;
  now(): number;
}

/** The audit's picture of a link: its terms and state, never its metadata (the merchant's own data). */
function audited(l: PaymentLinkRecord) {
  return {
    description: l.description,
    country_code: l.countryCode,
    currency: l.currency,
    amount: l.amount === null ? null : Number(l.amount),
    min_amount: l.minAmount === null ? null : Number(l.minAmount),
    max_amount: l.maxAmount === null ? null : Number(l.maxAmount),
    reusable: l.reusable,
    max_payments: l.maxPayments,
    expires_at: l.expiresAt,
    redirect_url: l.redirectUrl,
    status: l.status,
  };
}

export function linksRouter(deps: LinksRouterDeps): Router {
  const router = express.Router();
  const now = () => new Date(deps.now());
  const useCase: CreatePaymentLinkDeps = {
    db: deps.db,
    limits: deps.cashoutRules.limits,
    isActiveCountry: async (code) => (await findActiveSubsidiary(deps.db, code)) !== null,
    now: deps.now,
  };

  /** The user's merchant's link named by the path, or a 404 (malformed, unknown, another merchant's). */
  async function ownLink(req: Request, res: Response): Promise<PaymentLinkRecord> {
    const id = req.params.id;
    const link =
      typeof id === 'string' && isUuid(id)
        ? await findMerchantPaymentLink(deps.db, currentUser(res).merchantId, id.toLowerCase(), now())
        : null;
    if (!link) throw notFoundError();
    return link;
  }

  router.get('/', requirePermission('payments:read'), async (req, res) => {
    const user = currentUser(res);
    const m = linksText(localeOfResponse(res));
    const status = typeof req.query.status === 'string' ? req.query.status : '';
    const after = typeof req.query.after === 'string' && req.query.after !== '' ? req.query.after : undefined;
    const error =
      status !== '' && !(PAYMENT_LINK_STATUSES as readonly string[]).includes(status)
        ? m.badStatus
        : after !== undefined && !isUuid(after)
          ? m.badPage
          : undefined;
    const page = error
      ? null
      : await listMerchantPaymentLinks(
          deps.db,
          {
            merchantId: user.merchantId,
            limit: PAGE_SIZE,
            startingAfter: after?.toLowerCase(),
            status: status === '' ? undefined : (status as PaymentLinkStatus),
          },
          now(),
        );
    renderPage(req, res, {
      status: error ? 400 : 200,
      title: m.title,
      body: linksListView(m, {
        status: error === m.badStatus ? '' : status,
        error,
        after,
        links: page?.links ?? null,
        next: page?.hasMore ? (page.links.at(-1)?.id ?? null) : null,
        canManage: merchantCan(user.role, 'links:manage'),
      }),
    });
  });

  const showForm = async (
    req: Request,
    res: Response,
    opts: { status?: number; values?: LinkFormValues; errors?: LinkFormErrors } = {},
  ) => {
    const m = linksText(localeOfResponse(res));
    const countries = await listActiveSubsidiaries(deps.db);
    renderPage(req, res, {
      status: opts.status ?? 200,
      title: m.newTitle,
      body: linkFormView(m, {
        values: opts.values ?? blankLinkForm(),
        errors: opts.errors ?? {},
        countries,
        csrfToken: csrfToken(req),
      }),
    });
  };

  router.get('/new', requirePermission('links:manage'), (req, res) => showForm(req, res));

  router.post('/', requirePermission('links:manage'), async (req, res) => {
    const user = currentUser(res);
    const m = linksText(localeOfResponse(res));
    const values = linkFormValues(req);
    const parsed = parseLinkForm(req, m);
    if (!parsed.ok) return showForm(req, res, { status: 400, values, errors: parsed.errors });
    const body: PaymentLinkBody = parsed.body;
    let link: PaymentLinkRecord;
    try {
      ({ link } = await createPaymentLink(useCase, user.merchantId, body, {
        idempotencyKey: portalLinkKey(parsed.formKey),
        audit: (created) => ({
          staffId: null,
          actor: user.email,
          action: 'portal.payment_link.created',
          targetType: 'payment_link',
          targetId: created.id,
          merchantId: user.merchantId,
          merchantUserId: user.id,
          ...requestContext(req, res),
          after: audited(created),
        }),
      }));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const refusal = linkRefusal(err, m, values.amountKind, deps.cashoutRules.limits);
      // A form that made its link already is shown again with a key of its own, to make another.
      const again = err.code === 'IDEMPOTENCY_KEY_REUSED' ? { ...values, formKey: blankLinkForm().formKey } : values;
      return showForm(req, res, { status: refusal.status, values: again, errors: refusal.errors });
    }
    res.redirect(303, `/links/${link.id}?created=1`);
  });

  router.get('/:id', requirePermission('payments:read'), async (req, res) => {
    const user = currentUser(res);
    const m = linksText(localeOfResponse(res));
    const link = await ownLink(req, res);
    const url = paymentLinkUrl(deps.gatewayPublicUrl, link.slug);
    const [qrSvg, payments, country] = await Promise.all([
      qrCodeSvg(url),
      listLinkPayments(deps.db, { merchantId: user.merchantId, linkId: link.id, limit: PAYMENTS_SHOWN }),
      deps.db.subsidiary.findUnique({ where: { countryCode: link.countryCode }, select: { countryName: true } }),
    ]);
    const notice =
      req.query.created === '1' ? m.createdNotice : req.query.deactivated === '1' ? m.deactivated : undefined;
    renderPage(req, res, {
      title: link.description,
      body: linkDetailView(m, {
        link,
        url,
        qrSvg,
        payments,
        pageSize: PAYMENTS_SHOWN,
        countryName: country?.countryName ?? link.countryCode,
        canManage: merchantCan(user.role, 'links:manage'),
        csrfToken: csrfToken(req),
        notice,
      }),
    });
  });

  // Files to save, from the portal itself (no image from another origin): the gateway's bytes for the same address.
  router.get('/:id/qr.png', requirePermission('payments:read'), async (req, res) => {
    const link = await ownLink(req, res);
    const png = await qrCodePng(paymentLinkUrl(deps.gatewayPublicUrl, link.slug));
    res.attachment(`payment-link-${link.slug}.png`).type(QR_PNG_CONTENT_TYPE).send(png);
  });

  router.get('/:id/qr.svg', requirePermission('payments:read'), async (req, res) => {
    const link = await ownLink(req, res);
    const svg = await qrCodeSvg(paymentLinkUrl(deps.gatewayPublicUrl, link.slug));
    res.attachment(`payment-link-${link.slug}.svg`).type(QR_SVG_CONTENT_TYPE).send(svg);
  });

  router.post('/:id/deactivate', requirePermission('links:manage'), async (req, res) => {
    const user = currentUser(res);
    const before = await ownLink(req, res);
    // Written with the change, and only by the call that made it: a second click writes no second row.
    const after = await deactivatePaymentLink(deps.db, user.merchantId, before.id, now(), (changed) => ({
      staffId: null,
      actor: user.email,
      action: 'portal.payment_link.deactivated',
      targetType: 'payment_link',
      targetId: changed.id,
      merchantId: user.merchantId,
      merchantUserId: user.id,
      ...requestContext(req, res),
      before: { status: before.status },
      after: { status: changed.status, deactivated_at: changed.deactivatedAt },
    }));
    if (!after) throw notFoundError();
    res.redirect(303, `/links/${after.id}?deactivated=1`);
  });

  return router;
}
