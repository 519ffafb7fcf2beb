/** The answer to a key's creation or roll: the only page that ever shows its secret. */
import type { IssuedKey } from '@mm/db/merchants';
import { html, type SafeHtml } from '@mm/web';
import { developersText, fill } from '../i18n/developers.js';
import type { Locale } from '../i18n/locale.js';

export interface IssuedKeyData {
  key: IssuedKey;
  /** After a roll: the replaced key and when it stops working. */
  rolled?: { oldApiKey: string; oldExpiresAt: Date };
}

export function issuedKeyView(locale: Locale, data: IssuedKeyData): SafeHtml {
  const d = developersText(locale);
  const heading = data.rolled ? d.keyRolled : d.newKey;
  return html`<h1>${heading}</h1>
<p class="notice" role="status">${d.secretOnce}</p>
<dl class="fields" id="issued-key">
<dt>${d.key}</dt><dd><code id="api-key">${data.key.apiKey}</code></dd>
<dt>${d.secret}</dt><dd><code id="api-secret">${data.key.apiSecret}</code></dd>
</dl>
${
  data.rolled
    ? html`<p id="old-key-until">${fill(d.oldKeyUntil, {
        key: data.rolled.oldApiKey,
        at: `${data.rolled.oldExpiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      })}</p>`
    : ''
}
<p><a href="/developers">${d.backToDevelopers}</a></p>`;
}
