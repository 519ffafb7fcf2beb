import express, { Router, type Request, type Response } from 'express';
import { storedAction, submitCustomerCode, type CodeIntake } from '@mm/collections';
import { isInFlight, maskMsisdn, type TransactionStatus } from '@mm/domain';
import type { Db } from '@mm/db';
import { formatAmount, returnTarget } from '../payment-page/format.js';
import { newNonce, securityHeaders } from '../payment-page/headers.js';
import { CODE_NOTICES, negotiateLang, type CodeNotice } from '../payment-page/i18n.js';
import { renderNotFound, renderPage, type PageAction, type StatusBody } from '../payment-page/render.js';
import { isUuid } from '../validation/uuid.js';

export interface PaymentPageDeps {
  db: Db;
  /** Where posted one-time codes go (attempt limit, customer-codes queue); without it POST /pay/:id/code is 404. */
  codes?: CodeIntake;
  /** PUBLIC_BASE_URL: a code form posted from its origin is the page's own (behind a proxy the Host may differ). */
  publicBaseUrl?: string;
  now?: () => number;
}

function secure(res: Response, postsForms = false): string {
  const nonce = newNonce();
  res.set(securityHeaders(nonce, postsForms));
  return nonce;
}

/**
 * A code form posted by the page itself, not by another site: Sec-Fetch-Site says so when the browser
 * sends it (the page's no-referrer policy makes Chromium send "Origin: null" on its own form posts);
 * otherwise the Origin must be the page's (its Host, or PUBLIC_BASE_URL's). Neither: refused.
 */
export function postedByThePage(req: Request, publicBaseUrl?: string): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = req.get('origin');
  if (!origin || origin === 'null') return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const own = [req.get('host')];
  if (publicBaseUrl) own.push(new URL(publicBaseUrl).host);
  return own.includes(host);
}

/**
 * The payment_url page and its status JSON. The transaction id is the only key, so both show nothing a
 * customer would not see on their own phone: merchant name, amount, masked number, status in words.
 * Cash-ins only: a cash-out is the merchant paying someone (beneficiary, amount, outcome), which no
 * customer page shows; its id answers 404 like an unknown one, so the page does not even confirm it exists.
 */
export function paymentPageRouter(deps: PaymentPageDeps): Router {
  const now = deps.now ?? Date.now;
  const router = Router();

  router.get('/pay/:id', async (req, res) => {
    let nonce = secure(res);
    res.vary('Accept-Language');
    const lang = negotiateLang(req.get('accept-language'));
    const id = req.params.id;
    const t = isUuid(id)
      ? await deps.db.transaction.findUnique({
          where: { id, type: 'CASHIN' },
          select: {
            status: true,
            amount: true,
            currency: true,
            msisdn: true,
            motif: true,
            returnUrl: true,
            failureCode: true,
            expiresAt: true,
            operator: true,
            customerAction: true,
            merchant: { select: { name: true } },
          },
        })
      : null;
    if (!t) {
      res.status(404).type('html').send(renderNotFound(lang, nonce));
      return;
    }
    const open = isInFlight(t.status as TransactionStatus);
    const stored = open ? storedAction(t.customerAction) : null;
    let action: PageAction | null = null;
    if (stored?.type === 'REDIRECT') action = { ...stored, operator: t.operator };
    if (stored?.type === 'OTP') {
      // The notice only words what the code route did; the state shown is the transaction's, never the query's.
      const notice =
        typeof req.query.code === 'string' && (CODE_NOTICES as readonly string[]).includes(req.query.code)
          ? (req.query.code as CodeNotice)
          : null;
      action = { ...stored, formAction: `/pay/${id}/code`, notice };
      nonce = secure(res, true);
    }
    const html = renderPage(
      {
        merchantName: t.merchant.name,
        amountText: formatAmount(t.amount, t.currency),
        maskedMsisdn: maskMsisdn(t.msisdn),
        motif: t.motif,
        status: t.status,
        failureCode: t.failureCode,
        remainingS: open && t.expiresAt ? Math.max(0, Math.floor((t.expiresAt.getTime() - now()) / 1000)) : null,
        redirectUrl: open ? null : returnTarget(t.returnUrl, id, t.status),
        action,
      },
      lang,
      nonce,
    );
    res.type('html').send(html);
  });

  router.get('/pay/:id/status', async (req, res) => {
    secure(res);
    const id = req.params.id;
    const t = isUuid(id)
      ? await deps.db.transaction.findUnique({
          where: { id, type: 'CASHIN' },
          select: { status: true, failureCode: true, returnUrl: true, customerAction: true },
        })
      : null;
    if (!t) {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    const body: StatusBody = { status: t.status };
    if (t.status === 'FAILED') body.failure_code = t.failureCode ?? 'UNKNOWN';
    if (!isInFlight(t.status as TransactionStatus)) {
      const target = returnTarget(t.returnUrl, id, t.status);
      if (target) body.redirect_url = target;
    } else {
      const action = storedAction(t.customerAction);
      if (action) body.action = action.type;
    }
    res.json(body);
  });

  /**
   * The one-time code a customer types on the page of a cash-in whose operator asked for one (OTP), taken
   * by submitCustomerCode (@mm/collections; at most CODE_ATTEMPTS_MAX times per cash-in). Unauthenticated,
   * like the page: only the page's own form is taken (postedByThePage, else 403). The customer is sent
   * back to the page (303), which shows the transaction's state and a notice of what happened here.
   * The code is never logged (the access log has the path only).
   */
  const codes = deps.codes;
  if (codes) {
    router.post(
      '/pay/:id/code',
      express.urlencoded({ extended: false, limit: '1kb', parameterLimit: 5 }),
      async (req, res) => {
        const nonce = secure(res);
        const lang = negotiateLang(req.get('accept-language'));
        const id = req.params.id;
        if (!postedByThePage(req, deps.publicBaseUrl)) {
          res.status(403).type('text').send('Forbidden: this form is only taken from the payment page.');
          return;
        }
        const typed = (req.body as Record<string, unknown> | undefined)?.code;
        const outcome = isUuid(id) ? await submitCustomerCode({ db: deps.db, codes }, id, typed) : 'not_found';
        if (outcome === 'not_found') {
          res.status(404).type('html').send(renderNotFound(lang, nonce));
          return;
        }
        res.redirect(303, `/pay/${id}?code=${outcome satisfies CodeNotice}`);
      },
    );
  }

  return router;
}
