import express, { Router, type Request, type Response } from 'express';
import { linkAmountOf, payThroughLink, type InitiateCashinDeps } from '@mm/collections';
import { findPaymentLinkBySlug, type PaymentLinkRecord } from '@mm/db/payment-links';
import { callingCodeOf, DomainError, linkRefusal, PaymentLinkRefused, paymentLinkUrl } from '@mm/domain';
import { clientAddressBucket } from '@mm/observability';
import { newNonce, securityHeaders } from '../payment-page/headers.js';
import { negotiateLang, type Lang } from '../payment-page/i18n.js';
import { LINK_MESSAGES, type LinkClosedReason } from '../payment-page/link-i18n.js';
import { renderLinkClosed, renderLinkError, renderLinkPage } from '../payment-page/link-render.js';
import { errorHandler, type ErrorHandlerOptions } from '../http/error-handler.js';
import type { Logger } from '@mm/observability';
import type { LinkSubmitLimit } from '../payment-links/link-submit-limit.js';
import { qrCodePng, qrCodeSvg, QR_PNG_CONTENT_TYPE, QR_SVG_CONTENT_TYPE } from '@mm/web/qr-code';
import { postedByThePage } from './payment-page.js';

export interface LinkPageDeps {
  cashins: InitiateCashinDeps;
  limit: LinkSubmitLimit;
  publicBaseUrl: string;
  now(): number;
  /** The app's error handling (its logging, Retry-After, the outage signal), answering a page instead of JSON. */
  errors: Pick<ErrorHandlerOptions, 'unavailableRetryAfterS' | 'onDatabaseUnavailable'> & { logger: Logger };
}

/** A link's slug: 22 base64url characters (newLinkSlug). Anything else is not looked up. */
const SLUG = /^[A-Za-z0-9_-]{22}$/;

const CLOSED_STATUS: Record<LinkClosedReason, number> = {
  NOT_FOUND: 404,
  INACTIVE: 410,
  EXPIRED: 410,
  COMPLETED: 410,
  BUSY: 409,
};

/**
 * A payment link's page (docs/payment-links.md): GET shows the form, POST starts the cash-in and sends
 * the customer on to its payment page (/pay/:id) for the push, the operator's page or a one-time code.
 * Unauthenticated like the payment page, with its headers (its own nonce'd style, no script, forms to
 * its own origin only). The slug is the only key; the page shows what the customer pays and to whom.
 */
export function linkPageRouter(deps: LinkPageDeps): Router {
  const router = Router();
  const byNameOnly = (country: string) => deps.cashins.operators.byNameOnly?.(country) ?? Promise.resolve([]);

  async function linkOf(req: Request): Promise<(PaymentLinkRecord & { merchantName: string }) | null> {
    const slug = typeof req.params.slug === 'string' ? req.params.slug : '';
    return SLUG.test(slug) ? findPaymentLinkBySlug(deps.cashins.db, slug, new Date(deps.now())) : null;
  }

  function closed(res: Response, lang: Lang, nonce: string, reason: LinkClosedReason, merchant: string | null) {
    res
      .status(CLOSED_STATUS[reason])
      .type('html')
      .send(renderLinkClosed(lang, nonce, reason, merchant));
  }

  async function form(
    res: Response,
    link: PaymentLinkRecord & { merchantName: string },
    lang: Lang,
    extra: { status?: number; typed?: Record<string, string>; error?: string } = {},
  ) {
    const nonce = newNonce();
    res.set(securityHeaders(nonce, true));
    const html = renderLinkPage(
      {
        merchantName: link.merchantName,
        description: link.description,
        currency: link.currency,
        amount: linkAmountOf(link),
        callingCode: callingCodeOf(link.countryCode),
        operators: await byNameOnly(link.countryCode),
        formAction: `/l/${link.slug}`,
        typed: extra.typed,
        error: extra.error ?? null,
      },
      lang,
      nonce,
    );
    res
      .status(extra.status ?? 200)
      .type('html')
      .send(html);
  }

  router.get('/l/:slug', async (req, res) => {
    const nonce = newNonce();
    res.set(securityHeaders(nonce));
    res.vary('Accept-Language');
    const lang = negotiateLang(req.get('accept-language'));
    const link = await linkOf(req);
    if (!link) return closed(res, lang, nonce, 'NOT_FOUND', null);
    const refusal = linkRefusal(link, new Date(deps.now()));
    if (refusal) return closed(res, lang, nonce, refusal, link.merchantName);
    await form(res, link, lang);
  });

  router.post(
    '/l/:slug',
    express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 5 }),
    async (req, res) => {
      const nonce = newNonce();
      res.set(securityHeaders(nonce));
      const lang = negotiateLang(req.get('accept-language'));
      if (!postedByThePage(req, deps.publicBaseUrl)) {
        res.status(403).type('text').send('Forbidden: this form is only taken from the payment link page.');
        return;
      }
      const link = await linkOf(req);
      if (!link) return closed(res, lang, nonce, 'NOT_FOUND', null);
      const posted = (req.body ?? {}) as Record<string, unknown>;
      const typed = Object.fromEntries(
        ['msisdn', 'amount', 'operator'].flatMap((k) => (typeof posted[k] === 'string' ? [[k, posted[k]]] : [])),
      ) as Record<string, string>;
      const m = LINK_MESSAGES[lang];
      const wait = await deps.limit.consume(link.id, clientAddressBucket(req.ip));
      if (wait !== null) {
        res.set('Retry-After', String(wait));
        return form(res, link, lang, { status: 429, typed, error: m.tooMany });
      }
      try {
        const { transactionId } = await payThroughLink(deps.cashins, link, typed, await byNameOnly(link.countryCode));
        res.redirect(303, `/pay/${transactionId}`);
      } catch (err) {
        if (err instanceof PaymentLinkRefused) return closed(res, lang, nonce, err.reason, link.merchantName);
        if (!(err instanceof DomainError)) throw err;
        const field = err.details?.[0]?.field;
        if (err.code === 'VALIDATION_ERROR' || err.code === 'COUNTRY_NOT_SUPPORTED') {
          const which = field === 'amount' || field === 'operator' ? field : 'msisdn';
          return form(res, link, lang, { status: 422, typed, error: m.field[which] });
        }
        if (err.code === 'OPERATOR_NOT_SUPPORTED')
          return form(res, link, lang, { status: 422, typed, error: m.field.other });
        if (err.code === 'OPERATOR_UNAVAILABLE' || err.code === 'SERVICE_UNAVAILABLE') {
          if (err.retryAfterS) res.set('Retry-After', String(err.retryAfterS));
          return form(res, link, lang, { status: 503, typed, error: m.unavailable });
        }
        throw err;
      }
    },
  );

  // The link's address as a QR code, to print or share. Any existing link's (a closed one's code
  // still leads to the page that says so); the same bytes every time, so it may be cached. ?download=1
  // makes it a file to save (the dashboard's download buttons), named for the link.
  const qr = (render: (url: string) => Promise<Buffer | string>, type: string, extension: string) =>
    async function qrCode(req: Request, res: Response) {
      const link = await linkOf(req);
      res.set({ 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'" });
      if (!link) {
        res.status(404).type('text').send('Not found');
        return;
      }
      if (req.query.download === '1') res.attachment(`payment-link-${link.slug}.${extension}`);
      res
        .set('Cache-Control', 'public, max-age=86400')
        .type(type)
        .send(await render(paymentLinkUrl(deps.publicBaseUrl, link.slug)));
    };
  router.get('/l/:slug/qr.png', qr(qrCodePng, QR_PNG_CONTENT_TYPE, 'png'));
  router.get('/l/:slug/qr.svg', qr(qrCodeSvg, QR_SVG_CONTENT_TYPE, 'svg'));

  // What the routes above did not expect (the database gone, a bug): classified and logged as the API's
  // errors are, answered with a page the customer can read, never a stack or the API's JSON.
  router.use(
    '/l',
    errorHandler(deps.errors.logger, {
      ...deps.errors,
      respond: (req, res, error) => {
        const nonce = newNonce();
        res.set(securityHeaders(nonce));
        const lang = negotiateLang(req.get('accept-language'));
        // A slug that does not percent-decode fails the route's match: no such link, said as for any other.
        if (error.code === 'NOT_FOUND') return closed(res, lang, nonce, 'NOT_FOUND', null);
        res.type('html').send(renderLinkError(lang, nonce, error.code === 'SERVICE_UNAVAILABLE'));
      },
    }),
  );

  return router;
}
