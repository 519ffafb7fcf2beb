import { securityHeaders, newNonce } from './headers.js';
import { escapeHtml, renderNotFound, renderPage, scriptJson, type PageView } from './render.js';

const view = (o: Partial<PageView> = {}): PageView => ({
  merchantName: 'Boutique <Test>', amountText: '5\u00a0000\u00a0F\u00a0CFA', maskedMsisdn: '+22507******01', motif: null,
  status: 'PENDING', failureCode: null, remainingS: 125, redirectUrl: null, ...o,
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
    const html = renderPage(view({ status: 'FAILED', failureCode: 'INSUFFICIENT_BALANCE', redirectUrl: target }), 'en', 'n');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Payment failed');
    expect(html).toContain('Insufficient balance.');
    expect(html).not.toContain('id="cd"');
    expect(html).toContain(`<a id="return" href="${escapeHtml(target)}">Back to Boutique &lt;Test&gt;</a>`);
    expect(html).toContain(`<noscript><meta http-equiv="refresh" content="3;url=${escapeHtml(target)}"></noscript>`);
  });
  it.each([
    ['SUCCESS', 'Paiement réussi'], ['EXPIRED', 'Délai dépassé'], ['REVERSED', 'Paiement remboursé'], ['CREATED', 'Envoi de la demande…'],
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
    expect(h).toMatchObject({ 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  });
});
