import express, { type Router } from 'express';
import type { SessionBook } from './session-book.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * wave_launch_url: a minimal page standing in for the Wave app (no script, two POST forms). Pay applies the
 * number's scripted outcome and sends the browser to success_url or error_url, as Wave does; Cancel ends
 * the session unpaid and sends it to error_url.
 */
export function launchPageRouter(sessions: SessionBook): Router {
  const r = express.Router();
  r.get('/c/:id', (req, res) => {
    const s = sessions.get(String(req.params.id));
    if (!s) return res.status(404).type('html').send('<!doctype html><title>Wave</title><p>Unknown checkout.</p>');
    const action = (what: string) => `/c/${encodeURIComponent(s.id)}/${what}`;
    const open = s.checkout_status === 'open';
    res.type('html')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Wave checkout (mock)</title></head><body>
<h1>Pay ${escape(s.amount)} ${escape(s.currency)} to Mock Business</h1>
<p>Checkout ${escape(s.id)}: ${escape(s.checkout_status)} / ${escape(s.payment_status)}${s.restrict_payer_mobile ? ` — payer ${escape(s.restrict_payer_mobile)}` : ''}</p>
${
  open
    ? `<form method="post" action="${action('pay')}"><button type="submit">Pay</button></form>
<form method="post" action="${action('cancel')}"><button type="submit">Cancel</button></form>`
    : '<p>This checkout can no longer be paid.</p>'
}
</body></html>`);
  });
  r.post('/c/:id/pay', (req, res) => {
    const s = sessions.get(String(req.params.id));
    if (!s) return res.status(404).end();
    const outcome =
      s.checkout_status === 'open' ? sessions.payNow(s) : s.payment_status === 'succeeded' ? 'success' : 'error';
    res.redirect(303, outcome === 'success' ? s.success_url : s.error_url);
  });
  r.post('/c/:id/cancel', (req, res) => {
    const s = sessions.get(String(req.params.id));
    if (!s) return res.status(404).end();
    sessions.abandon(s);
    res.redirect(303, s.error_url);
  });
  return r;
}
