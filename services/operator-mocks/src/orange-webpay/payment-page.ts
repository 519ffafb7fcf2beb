import type { WebPayment } from './payments.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page payment_url serves: what Orange's hosted page asks (the customer's number, then Pay or Cancel),
 * as two plain POST forms. No script and no inline style, so its CSP can forbid both.
 */
export function paymentPage(p: WebPayment): string {
  const token = encodeURIComponent(p.payToken);
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Orange Money - Paiement</title></head>
<body>
<h1>Orange Money</h1>
<p>Marchand : ${escape(p.reference)}</p>
<p>Montant : ${p.amount} ${escape(p.currency)}</p>
<p>Statut : ${p.status}</p>
<form method="post" action="/mpayment-otp/${token}/pay">
<label>Numero Orange Money <input name="msisdn" inputmode="tel" required></label>
<button type="submit">Payer</button>
</form>
<form method="post" action="/mpayment-otp/${token}/cancel"><button type="submit">Annuler</button></form>
</body></html>`;
}

export const PAGE_CSP = "default-src 'none'; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'";
