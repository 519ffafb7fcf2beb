import type { MerchantUserAccount } from '@mm/db/merchant-users';
import { csrfField, documentShell, html, raw, type SafeHtml } from '@mm/web';
import type { Locale } from '../i18n/locale.js';
import { roleLabel, t } from '../i18n/messages.js';
import { navFor } from './nav.js';

export interface LayoutInput {
  locale: Locale;
  title: string;
  body: SafeHtml;
  /** The signed-in user, or null on the sign-in and error pages of anonymous visitors. */
  user: MerchantUserAccount | null;
  /** The session's CSRF token, for the sign-out and language forms; null without a session. */
  csrfToken: string | null;
  nonce: string;
  /** The request path and query: the current nav entry, and where the language switch comes back to. */
  path: string;
  back: string;
}

// The portal's rules after the shared ones (BASE_CSS): its brand colour, the balance tiles, the chart.
const CSS = `
header{background:#123d2f}
button{background:#1f5a46;border-color:#1f5a46}
button.secondary{background:#fff;color:#1f5a46}
header nav a[aria-current=page],header nav a:hover{background:#1f5a46}
header .badge{background:#e7f5ec;color:#123d2f}
header .who{flex-wrap:wrap;gap:.4rem .6rem;min-width:0}
header .who a{color:inherit;overflow-wrap:anywhere}
header .who button{padding:.15rem .6rem;font-size:.85em}
header .lang button{padding:.15rem .5rem;font-size:.85em;background:transparent;border-color:#cfd8e3;color:#fff}
.tiles{display:flex;flex-wrap:wrap;gap:.8rem}
.tile{flex:1 1 12rem;background:#fff;border:1px solid #dde3ea;border-radius:6px;padding:.8rem 1rem}
.tile .n{display:block;font-size:1.4rem;font-weight:600}
.tile .k{font-size:.85em;color:#5f6b7a}
svg.chart{width:100%;height:auto;background:#fff;border:1px solid #dde3ea;border-radius:6px}
svg.chart{display:block}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(18rem,1fr));gap:.8rem;margin:.6rem 0}
figure.chart{margin:0}
figure.chart figcaption{font-weight:600;margin:0 0 .3rem}
#failures svg.chart,#operators svg.chart{max-width:26rem}
.statement{flex:1 1 16rem;min-width:0}
.statement table{width:100%}
.statement caption{text-align:left;font-weight:600;padding:.2rem 0}
.statement td{text-align:right;white-space:nowrap}
.statement tr[data-line=closing]{font-weight:600}
svg.chart .bar{fill:#2a8a66}
svg.chart text{font-size:11px;fill:#5f6b7a}
a.button{display:inline-block;padding:.4rem .9rem;border:1px solid #1f5a46;border-radius:4px;background:#1f5a46;color:#fff;text-decoration:none}
a.button.secondary{background:#fff;color:#1f5a46}
.actions{display:flex;flex-wrap:wrap;gap:.5rem}
.link-share{display:flex;flex-wrap:wrap;gap:0 2rem}
.link-share>section{flex:1 1 18rem;min-width:0}
.link-share h2{margin-top:1rem}
p.link-url code{display:block;background:#fff;border:1px solid #b9c3cf;border-radius:4px;padding:.4rem .5rem;overflow-wrap:anywhere;user-select:all}
#link-deactivate{margin-top:1.6rem}
#link-deactivate>h2:first-child{margin-top:0}
#link-filters>div:first-child{flex:0 1 20rem}
.qr{background:#fff;border:1px solid #dde3ea;border-radius:6px;padding:.4rem;width:15rem;max-width:100%}
.qr svg{display:block;width:100%;height:auto}
.card.wide{max-width:36rem}
fieldset{border:1px solid #dde3ea;border-radius:4px;margin:.9rem 0 0;padding:.2rem .8rem .8rem;min-width:0}
legend{font-weight:500;padding:0 .3rem}
label.choice{display:flex;gap:.45rem;align-items:baseline;font-weight:400}
label.choice input{flex:none;width:auto}
p.hint{margin:.2rem 0 0;font-size:.85em}
`;

function languageSwitch(input: LayoutInput): SafeHtml {
  if (!input.csrfToken) return html``;
  const other: Locale = input.locale === 'fr' ? 'en' : 'fr';
  // A form, not a link: it sets a cookie, and every change in the portal is a POST with its token.
  return html`<form method="post" action="/language" class="inline lang">${csrfField(input.csrfToken)}
<input type="hidden" name="lang" value="${other}"><input type="hidden" name="back" value="${input.back}">
<button type="submit" lang="${other}" id="switch-language">${other === 'fr' ? 'Français' : 'English'}</button></form>`;
}

/** The page around every portal screen. Every value is escaped by `html`. */
export function layout(input: LayoutInput): SafeHtml {
  const m = t(input.locale);
  const { user } = input;
  const brand = html`<span class="brand">${user ? user.merchant.name : m.siteName}</span>`;
  const header = user
    ? html`<header>
  ${brand}
  <nav aria-label="${m.mainNav}">${navFor(user.role, input.locale).map((item) => {
    const current =
      item.href === '/' ? input.path === '/' : input.path === item.href || input.path.startsWith(`${item.href}/`);
    return html`<a href="${item.href}" data-nav="${item.id}"${current ? raw(' aria-current="page"') : ''}>${item.label}</a>`;
  })}</nav>
  <span class="who"><a href="/account" id="user-email">${user.email}</a>
    <span class="badge" id="user-role">${roleLabel(input.locale, user.role)}</span>
    ${languageSwitch(input)}
    <form method="post" action="/logout" class="inline">${csrfField(input.csrfToken ?? '')}<button type="submit" class="secondary">${m.signOut}</button></form>
  </span>
</header>`
    : html`<header>${brand}<span class="who">${languageSwitch(input)}</span></header>`;
  return documentShell({
    lang: input.locale,
    title: input.title,
    siteName: m.siteName,
    nonce: input.nonce,
    css: CSS,
    header,
    body: input.body,
  });
}
