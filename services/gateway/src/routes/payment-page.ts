import { Router, type Response } from 'express';
import { isInFlight, maskMsisdn, type TransactionStatus } from '@mm/domain';
import type { Db } from '@mm/db';
import { formatAmount, returnTarget } from '../payment-page/format.js';
import { newNonce, securityHeaders } from '../payment-page/headers.js';
import { negotiateLang } from '../payment-page/i18n.js';
import { renderNotFound, renderPage, type StatusBody } from '../payment-page/render.js';
import { isUuid } from '../validation/uuid.js';

export interface PaymentPageDeps {
  db: Db;
  now?: () => number;
}

function secure(res: Response): string {
  const nonce = newNonce();
  res.set(securityHeaders(nonce));
  return nonce;
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
    const nonce = secure(res);
    res.vary('Accept-Language');
    const lang = negotiateLang(req.get('accept-language'));
    const id = req.params.id;
    const t = isUuid(id)
      ? await deps.db.transaction.findUnique({
          where: { id, type: 'CASHIN' },
          select: { status: true, amount: true, currency: true, msisdn: true, motif: true, returnUrl: true, failureCode: true, expiresAt: true, merchant: { select: { name: true } } },
        })
      : null;
    if (!t) {
      res.status(404).type('html').send(renderNotFound(lang, nonce));
      return;
    }
    const open = isInFlight(t.status as TransactionStatus);
    const html = renderPage({
      merchantName: t.merchant.name,
      amountText: formatAmount(t.amount, t.currency),
      maskedMsisdn: maskMsisdn(t.msisdn),
      motif: t.motif,
      status: t.status,
      failureCode: t.failureCode,
      remainingS: open && t.expiresAt ? Math.max(0, Math.floor((t.expiresAt.getTime() - now()) / 1000)) : null,
      redirectUrl: open ? null : returnTarget(t.returnUrl, id, t.status),
    }, lang, nonce);
    res.type('html').send(html);
  });

  router.get('/pay/:id/status', async (req, res) => {
    secure(res);
    const id = req.params.id;
    const t = isUuid(id)
      ? await deps.db.transaction.findUnique({ where: { id, type: 'CASHIN' }, select: { status: true, failureCode: true, returnUrl: true } })
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
    }
    res.json(body);
  });

  return router;
}
