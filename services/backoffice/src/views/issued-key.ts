import type { IssuedKey } from '@mm/db/merchants';
import { html, type SafeHtml, when } from '@mm/web';

export interface IssuedKeyView {
  heading: string;
  merchant: { id: string; name: string };
  key: IssuedKey;
  /** After a rotation: the old key and when it stops working. */
  rotation?: { oldApiKey: string; oldExpiresAt: Date; now: Date };
}

/**
 * The one page that ever shows an api_secret: the answer to the POST that created the key (no redirect,
 * nothing kept in the session), sent with Cache-Control: no-store. The secret appears once in it.
 */
export function issuedKeyView(v: IssuedKeyView): SafeHtml {
  const r = v.rotation;
  const oldKey = r
    ? html`<p id="rotation-notice">The old key <code>${r.oldApiKey}</code> ${
        r.oldExpiresAt > r.now ? html`keeps working until ${when(r.oldExpiresAt)}.` : 'no longer works.'
      }</p>`
    : '';
  return html`<h1>${v.heading}</h1>
<p class="notice" role="alert">Copy the secret now and give it to the merchant over a safe channel: it is shown on this page only and can never be displayed again. If it is lost, rotate the key.</p>
<table id="issued-key"><tbody>
<tr><th>Merchant</th><td>${v.merchant.name}</td></tr>
<tr><th>api_key</th><td><code id="issued-api-key">${v.key.apiKey}</code></td></tr>
<tr><th>api_secret</th><td><code id="issued-api-secret">${v.key.apiSecret}</code></td></tr>
</tbody></table>
${oldKey}
<p><a href="/merchants/${v.merchant.id}">Continue to the merchant</a></p>`;
}
