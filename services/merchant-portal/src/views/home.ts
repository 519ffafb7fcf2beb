import type { BalanceRow } from '@mm/db/ledger';
import { amount, html, type SafeHtml } from '@mm/web';
import type { Locale } from '../i18n/locale.js';
import { t } from '../i18n/messages.js';

export interface HomeData {
  balances: BalanceRow[];
}

export function homeView(locale: Locale, data: HomeData): SafeHtml {
  const m = t(locale);
  return html`<h1>${m.home}</h1>
<h2>${m.balances}</h2>
${
  data.balances.length === 0
    ? html`<p class="muted">${m.noSubsidiary}</p>`
    : html`<div class="tiles" id="balances">${data.balances.map(
        (b) => html`<div class="tile" data-country="${b.countryCode}"><span class="k">${b.countryName}</span>
<span class="n" data-balance="available">${amount(b.available, b.currency)}</span>
<span class="k">${m.available}</span> · <span class="k" data-balance="pending">${m.pending} ${amount(b.pending, b.currency)}</span></div>`,
      )}</div>`
}`;
}
