import { Router } from 'express';
import { isInFlight, maskMsisdn, type TransactionStatus } from '@mm/domain';
import type { Db } from '@mm/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const MESSAGES: Record<string, string> = {
  CREATED: 'Sending the payment request to your phone…',
  INITIATED: 'Sending the payment request to your phone…',
  PENDING: 'Check your phone and confirm the payment with your secret code.',
  SUCCESS: 'Payment confirmed. Thank you!',
  FAILED: 'The payment did not go through.',
  EXPIRED: 'The confirmation delay has passed; the payment was not made.',
  REVERSED: 'This payment was refunded.',
};

/**
 * The payment_url page: the customer follows the USSD confirmation here. It refreshes itself while the
 * outcome is open. The transaction id is the only key, so the page shows nothing a customer would not
 * see on their own phone (masked number, amount, merchant name).
 */
export function paymentPageRouter(deps: { db: Db }): Router {
  const router = Router();
  router.get('/pay/:id', async (req, res) => {
    const id = req.params.id;
    const t = UUID.test(id) ? await deps.db.transaction.findUnique({ where: { id }, include: { merchant: { select: { name: true } } } }) : null;
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    if (!t) {
      res.status(404).type('html').send('<!doctype html><meta charset="utf-8"><title>Payment not found</title><p>Payment not found.</p>');
      return;
    }
    const open = isInFlight(t.status as TransactionStatus);
    const back = !open && t.returnUrl ? `<p><a id="return" href="${escape(t.returnUrl)}">Return to ${escape(t.merchant.name)}</a></p>` : '';
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${open ? '<meta http-equiv="refresh" content="3">' : ''}
<title>Payment to ${escape(t.merchant.name)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}
.amount{font-size:2rem;font-weight:600}.status{padding:.75rem;border-radius:.5rem;background:#f3f4f6}</style></head>
<body><h1>${escape(t.merchant.name)}</h1>
<p class="amount">${Number(t.amount).toLocaleString('fr-FR')} ${escape(t.currency)}</p>
<p>Phone: ${escape(maskMsisdn(t.msisdn))}</p>
${t.motif ? `<p>${escape(t.motif)}</p>` : ''}
<p class="status" id="status" data-status="${t.status}">${escape(MESSAGES[t.status] ?? t.status)}</p>
${back}
</body></html>`);
  });
  return router;
}
