import { securityHeaders, newNonce } from './headers.js';
import { escapeHtml, renderNotFound, renderPage, scriptJson, type PageView } from './render.js';

const view = (o: Partial<PageView> = {}): PageView => ({
  merchantName: 'Boutique <Test>',
  amountText: '5\u00a0000\u00a0F\u00a0CFA',
  maskedMsisdn: '+22507******01',
  motif: null,
  status: 'PENDING',
  failureCode: null,
  remainingS: 125,
  redirectUrl: null,
  ...o,
});

describe('renderPage', () => {
  it('escapes what the merchant supplied', () => {
    const html = renderPage(view({ motif: '"><script>x()</script>' }), 'fr', 'N0nce');
    expect(html).toContain('Boutique &lt;Test&gt;');
    expect(html).not.toContain('<script>x()');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });
  it('in flight: French instruction, countdown mm:ss, noscript refresh, live status region', () => {
    const html = renderPage(view(), 'fr', 'N0nce');
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('Composez votre code secret sur votre téléphone pour confirmer le paiement.');
    expect(html).toMatch(/data-remaining="125">02:05</);
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
    expect(html).toMatch(/role="status" aria-live="polite"/);
    expect(html).toContain('<script nonce="N0nce">');
    expect(html).toContain('<style nonce="N0nce">');
    expect(html).toContain('width=device-width');
    // the refresh only exists for browsers without JavaScript
    expect(html.match(/http-equiv="refresh"/g)).toHaveLength(1);
  });
  it('no countdown without expiry', () => {
    expect(renderPage(view({ remainingS: null }), 'en', 'n')).not.toContain('id="cd"');
  });
  it('FAILED: reason in words, no countdown, redirect link and noscript redirect to the return target', () => {
    const target = 'https://shop.example/r?transaction_id=t1&status=FAILED';
    const html = renderPage(
      view({ status: 'FAILED', failureCode: 'INSUFFICIENT_BALANCE', redirectUrl: target }),
      'en',
      'n',
    );
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Payment failed');
    expect(html).toContain('Insufficient balance.');
    expect(html).not.toContain('id="cd"');
    expect(html).toContain(`<a id="return" href="${escapeHtml(target)}">Back to Boutique &lt;Test&gt;</a>`);
    expect(html).toContain(`<noscript><meta http-equiv="refresh" content="3;url=${escapeHtml(target)}"></noscript>`);
  });
  it.each([
    ['SUCCESS', 'Paiement réussi'],
    ['EXPIRED', 'Délai dépassé'],
    ['REVERSED', 'Paiement remboursé'],
    ['CREATED', 'Envoi de la demande…'],
  ])('%s reads "%s"', (status, words) => {
    const html = renderPage(view({ status }), 'fr', 'n');
    expect(html).toContain(words);
    expect(html).toContain(`st-${status === 'CREATED' ? 'sending' : status.toLowerCase()}`);
  });
  it('terminal without return_url: no refresh, hidden link', () => {
    const html = renderPage(view({ status: 'SUCCESS' }), 'fr', 'n');
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain('<p id="back" hidden>');
  });
  it('stays small', () => {
    expect(Buffer.byteLength(renderPage(view({ motif: 'x'.repeat(200) }), 'fr', newNonce()))).toBeLessThan(10_000);
  });
});

describe('renderPage per customer action', () => {
  const redirect = {
    type: 'REDIRECT',
    url: 'https://webpay.orange.example/mpayment-otp/v1abc?x=1&y="2"',
    operator: 'ORANGE',
  } as const;
  const otp = { type: 'OTP', ussd: '#144*82#', formAction: '/pay/t1/code', notice: null } as const;

  it("REDIRECT: a call to action to the operator's URL (escaped), named after the operator, FR and EN; no USSD instruction", () => {
    const fr = renderPage(view({ action: redirect }), 'fr', 'n');
    expect(fr).toContain(
      '<a id="pay-op" class="btn" href="https://webpay.orange.example/mpayment-otp/v1abc?x=1&amp;y=&quot;2&quot;" rel="noreferrer">Payer avec Orange Money</a>',
    );
    expect(fr).not.toContain('Composez votre code secret');
    expect(fr).not.toContain('<form');
    expect(renderPage(view({ action: { ...redirect, operator: 'WAVE' } }), 'en', 'n')).toContain('>Pay with Wave</a>');
    expect(renderPage(view({ action: { ...redirect, operator: 'SIMULATOR' } }), 'fr', 'n')).toContain(
      '>Payer avec votre opérateur</a>',
    );
    // The script knows which action the page shows (it reloads when /status names another one).
    expect(fr).toContain('"a":"REDIRECT"');
    expect(fr).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
  });

  it("OTP: the USSD code to dial and a numeric one-time-code form posting to the page's own route; no refresh over it", () => {
    const fr = renderPage(view({ action: otp }), 'fr', 'n');
    expect(fr).toContain('<p id="ussd" class="ussd">#144*82#</p>');
    expect(fr).toContain('<form id="code-form" method="post" action="/pay/t1/code">');
    expect(fr).toContain('<label for="code">Code à usage unique (4 à 8 chiffres)</label>');
    expect(fr).toContain(
      '<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{4,8}" minlength="4" maxlength="8" required>',
    );
    expect(fr).toContain('<button type="submit">Valider le code</button>');
    expect(fr).not.toContain('http-equiv="refresh"');
    expect(fr).not.toContain('id="code-notice"');
    const en = renderPage(view({ action: otp }), 'en', 'n');
    expect(en).toContain('One-time code (4 to 8 digits)');
    expect(en).toContain('Dial this code on your phone to get a one-time code:');
    // Still one script only, the nonce'd one (and the JSON data block, which is not executed).
    expect(fr.match(/<script/g)).toHaveLength(2);
  });

  it('OTP notices: "sent" as a status, the errors as alerts', () => {
    expect(renderPage(view({ action: { ...otp, notice: 'sent' } }), 'fr', 'n')).toContain(
      '<p id="code-notice" class="note" role="status">Code envoyé. En attente de la confirmation de l’opérateur.</p>',
    );
    expect(renderPage(view({ action: { ...otp, notice: 'attempts' } }), 'en', 'n')).toContain(
      '<p id="code-notice" class="note err" role="alert">Too many attempts: this payment no longer takes a code.</p>',
    );
  });

  it('a decided payment shows no action, whatever is stored', () => {
    for (const action of [redirect, otp]) {
      const html = renderPage(view({ status: 'SUCCESS', action }), 'fr', 'n');
      expect(html).not.toContain('pay-op');
      expect(html).not.toContain('<form');
      expect(html).toContain('"a":null');
    }
  });

  it('OTP page stays small too', () => {
    expect(
      Buffer.byteLength(
        renderPage(view({ action: { ...otp, notice: 'invalid' }, motif: 'x'.repeat(200) }), 'fr', newNonce()),
      ),
    ).toBeLessThan(10_000);
  });
});

describe('renderNotFound', () => {
  it('speaks the chosen language', () => {
    expect(renderNotFound('fr', 'n')).toContain('Paiement introuvable');
    expect(renderNotFound('en', 'n')).toContain('<html lang="en">');
    expect(renderNotFound('en', 'n')).toContain('Payment not found');
  });
});

describe('scriptJson and headers', () => {
  it('cannot close the script element', () => {
    expect(scriptJson({ a: '</script><!--\u2028' })).not.toMatch(/[<>\u2028]/);
    expect(JSON.parse(scriptJson({ a: '</script>&' }))).toEqual({ a: '</script>&' });
  });
  it('builds the CSP around the nonce', () => {
    const n = newNonce();
    expect(n).not.toBe(newNonce());
    const h = securityHeaders(n);
    expect(h['Content-Security-Policy']).toBe(
      `default-src 'none'; style-src 'nonce-${n}'; script-src 'nonce-${n}'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(h).toMatchObject({
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
    // A one-time-code page may post its own form, to its own origin only; everything else is the same.
    expect(securityHeaders(n, true)['Content-Security-Policy']).toBe(
      h['Content-Security-Policy']!.replace("form-action 'none'", "form-action 'self'"),
    );
  });
});
