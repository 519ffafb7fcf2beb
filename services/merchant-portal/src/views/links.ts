/**
 * `/links`: the merchant's payment links (newest first, a status filter, keyset pages), a link's page
 * (its address, its QR code inline, its terms, totals and payments) and the create form. Plain
 * functions of what the route read; every value is escaped by `html` (the QR code's SVG is qrcode's
 * own path data, inserted as is).
 */
import type { LinkPaymentsPage, PaymentLinkRecord } from '@mm/db/payment-links';
import { maskMsisdn, PAYMENT_LINK_STATUSES, type PaymentLinkStatus } from '@mm/domain';
import { amount, csrfField, html, jsonBlock, raw, statusBadge, when, type SafeHtml } from '@mm/web';
import { linkStatusLabel, type LinksText } from '../i18n/links.js';
import type { LinkFormErrors, LinkFormField, LinkFormValues } from '../routes/links-form.js';

const TONE: Record<PaymentLinkStatus, string> = { ACTIVE: ' ok', COMPLETED: '', EXPIRED: ' off', INACTIVE: ' off' };

export function linkStatusBadge(m: LinksText, status: PaymentLinkStatus): SafeHtml {
  return html`<span class="badge${TONE[status]}" data-status="${status}">${linkStatusLabel(m, status)}</span>`;
}

/** "15 000 XOF", or "from 500 XOF to 5 000 XOF" for an amount the customer types. */
export function linkTermsAmount(m: LinksText, l: PaymentLinkRecord): string {
  if (l.amount !== null) return amount(l.amount, l.currency);
  return m.between
    .replace('{min}', amount(l.minAmount ?? 0n, l.currency))
    .replace('{max}', amount(l.maxAmount ?? 0n, l.currency));
}

function paymentsCell(m: LinksText, l: PaymentLinkRecord): SafeHtml {
  return html`<span data-paid="${l.paid}">${l.paid} ${m.succeeded}</span> · <span data-in-progress="${l.inProgress}">${l.inProgress} ${m.inProgress}</span>`;
}

export interface LinksListView {
  /** The status filter as the address gave it ('' for any), and its refusal. */
  status: string;
  error?: string;
  /** The id the page goes on after (the address's `after`), if any. */
  after: string | undefined;
  /** Null when the filter was refused (no query ran). */
  links: PaymentLinkRecord[] | null;
  /** The id to go on after for the next page, null on the last page. */
  next: string | null;
  canManage: boolean;
}

const listQuery = (status: string, after?: string) => {
  const q = new URLSearchParams();
  if (status) q.set('status', status);
  if (after) q.set('after', after);
  const text = q.toString();
  return text ? `/links?${text}` : '/links';
};

export function linksListView(m: LinksText, v: LinksListView): SafeHtml {
  const filter = html`<form method="get" action="/links" id="link-filters" class="filters"><div>
<label for="f-status">${m.status}</label><select id="f-status" name="status"><option value="">${m.anyStatus}</option>${PAYMENT_LINK_STATUSES.map(
    (s) => html`<option value="${s}"${s === v.status ? raw(' selected') : ''}>${linkStatusLabel(m, s)}</option>`,
  )}</select></div><div><button type="submit">${m.filter}</button> <a href="/links">${m.clear}</a></div></form>`;
  const error = v.error ? html`<p class="error" id="links-error" role="alert">${v.error}</p>` : '';
  return html`<h1>${m.title}</h1>
<p class="muted">${m.intro}</p>
${v.canManage ? html`<p><a class="button" id="new-link" href="/links/new">${m.create}</a></p>` : ''}
${filter}${error}${v.links ? linksTable(m, v, v.links) : ''}`;
}

function linksTable(m: LinksText, v: LinksListView, links: PaymentLinkRecord[]): SafeHtml {
  if (links.length === 0)
    return html`<p class="muted" id="no-links">${v.after ? m.noLinksBeyond : v.status ? m.noLinksMatch : m.noLinks}</p>${
      v.after ? html`<p class="pager"><a id="newest-page" href="${listQuery(v.status)}">${m.newest}</a></p>` : ''
    }`;
  const rows = links.map(
    (l) => html`<tr data-link-id="${l.id}">
<td data-label="${m.description}"><a href="/links/${l.id}">${l.description}</a></td>
<td data-label="${m.amount}">${linkTermsAmount(m, l)}</td>
<td data-label="${m.status}">${linkStatusBadge(m, l.status)}</td>
<td data-label="${m.payments}">${paymentsCell(m, l)}</td>
<td data-label="${m.collected}" data-collected="${l.collected.toString()}">${amount(l.collected, l.currency)}</td>
<td data-label="${m.created}">${when(l.createdAt)}</td></tr>`,
  );
  const pager = [
    v.after ? html`<a id="newest-page" href="${listQuery(v.status)}">${m.newest}</a>` : null,
    v.next ? html`<a id="older-page" href="${listQuery(v.status, v.next)}" rel="next">${m.older}</a>` : null,
  ].filter((p) => p !== null);
  return html`<div class="scroll"><table id="links-table" class="cards"><thead><tr><th>${m.description}</th><th>${m.amount}</th>
<th>${m.status}</th><th>${m.payments}</th><th>${m.collected}</th><th>${m.created}</th></tr></thead>
<tbody>${rows}</tbody></table></div>${
    pager.length ? html`<p class="pager">${pager.map((p, i) => html`${i ? ' · ' : ''}${p}`)}</p>` : ''
  }`;
}

export interface LinkDetailView {
  link: PaymentLinkRecord;
  url: string;
  /** The link's address as an SVG QR code (qrCodeSvg). */
  qrSvg: string;
  payments: LinkPaymentsPage;
  pageSize: number;
  countryName: string;
  canManage: boolean;
  csrfToken: string;
  notice?: string;
}

const field = (label: string, value: SafeHtml | string, name: string) =>
  html`<dt>${label}</dt><dd data-field="${name}">${value}</dd>`;

export function linkDetailView(m: LinksText, v: LinkDetailView): SafeHtml {
  const l = v.link;
  const notice = v.notice ? html`<p class="notice" id="link-notice" role="status">${v.notice}</p>` : '';
  return html`<p><a href="/links">${m.back}</a></p>
<h1>${l.description}</h1>${notice}
<p>${linkStatusBadge(m, l.status)}</p>
<div class="link-share">
<section class="share-address"><h2>${m.address}</h2>
<p class="muted">${m.addressHelp}</p>
<p class="link-url"><code id="link-url">${v.url}</code></p>
<p><a href="${v.url}" id="open-link" rel="noopener noreferrer" target="_blank">${m.open}</a></p></section>
<section class="share-qr"><h2>${m.qrTitle}</h2>
<div class="qr" id="link-qr" role="img" aria-label="${m.qrLabel}">${raw(v.qrSvg.trim())}</div>
<p class="actions"><a class="button" id="download-png" href="/links/${l.id}/qr.png" download>${m.downloadPng}</a>
<a class="button secondary" id="download-svg" href="/links/${l.id}/qr.svg" download>${m.downloadSvg}</a></p>
<p class="muted">${m.qrHelp}</p></section>
</div>
<h2>${m.totals}</h2>
<dl class="fields" id="link-totals">
${field(m.payments, paymentsCell(m, l), 'payments')}
${field(m.collected, amount(l.collected, l.currency), 'collected')}
</dl>
<h2>${m.terms}</h2>
<dl class="fields" id="link-terms">
${field(m.amount, html`${l.amount !== null ? m.fixed : m.range}: ${linkTermsAmount(m, l)}`, 'amount')}
${field(m.country, `${v.countryName} (${l.countryCode}), ${l.currency}`, 'country')}
${field(m.use, l.reusable ? m.reusable : m.singleUse, 'use')}
${l.reusable ? field(m.maxPayments, l.maxPayments === null ? m.unlimited : m.paymentsCount.replace('{n}', String(l.maxPayments)), 'max_payments') : ''}
${field(m.expires, l.expiresAt ? when(l.expiresAt) : m.never, 'expires_at')}
${field(m.redirect, l.redirectUrl ?? m.none, 'redirect_url')}
${field(m.created, when(l.createdAt), 'created_at')}
${l.deactivatedAt ? field(m.deactivatedAt, when(l.deactivatedAt), 'deactivated_at') : ''}
${l.metadata ? field(m.metadata, jsonBlock(l.metadata), 'metadata') : ''}
</dl>
${v.canManage && l.status !== 'INACTIVE' ? deactivateForm(m, v) : ''}
<h2>${m.linkPayments}</h2>
${paymentsTable(m, v)}`;
}

function deactivateForm(m: LinksText, v: LinkDetailView): SafeHtml {
  return html`<section class="card" id="link-deactivate"><h2>${m.deactivateTitle}</h2><p class="muted">${m.deactivateHelp}</p>
<form method="post" action="/links/${v.link.id}/deactivate" id="deactivate-form">${csrfField(v.csrfToken)}
<button type="submit" class="danger">${m.deactivate}</button></form></section>`;
}

function paymentsTable(m: LinksText, v: LinkDetailView): SafeHtml {
  const { rows, hasMore } = v.payments;
  if (rows.length === 0) return html`<p class="muted" id="no-link-payments">${m.noPayments}</p>`;
  const all = html`<a id="all-link-payments" href="/payments?link=${v.link.id}">${m.allPayments}</a>`;
  const more = html`<p class="muted" id="more-payments">${hasMore ? `${m.linkPaymentsHelp.replace('{n}', String(v.pageSize))} ` : ''}${all}</p>`;
  return html`${more}<div class="scroll"><table id="link-payments" class="cards"><thead><tr><th>${m.created}</th><th>${m.status}</th>
<th>${m.amount}</th><th>${m.customer}</th><th>${m.operator}</th></tr></thead><tbody>${rows.map(
    (
      t,
    ) => html`<tr data-payment-id="${t.id}"><td data-label="${m.created}"><a href="/payments/${t.id}">${when(t.createdAt)}</a></td>
<td data-label="${m.status}">${statusBadge(t.status)}</td><td data-label="${m.amount}">${amount(t.amount, t.currency)}</td>
<td data-label="${m.customer}" data-msisdn>${maskMsisdn(t.msisdn)}</td><td data-label="${m.operator}">${t.operator}</td></tr>`,
  )}</tbody></table></div>`;
}

export interface LinkFormView {
  values: LinkFormValues;
  errors: LinkFormErrors;
  countries: { countryCode: string; countryName: string; currency: string }[];
  csrfToken: string;
}

const ORDER: LinkFormField[] = [
  'form',
  'description',
  'country_code',
  'amount',
  'min_amount',
  'max_amount',
  'max_payments',
  'expires_at',
  'redirect_url',
];

export function linkFormView(m: LinksText, v: LinkFormView): SafeHtml {
  const f = v.values;
  const errs = ORDER.flatMap((k) => (v.errors[k] ? [v.errors[k]] : []));
  const invalid = (k: LinkFormField) => (v.errors[k] ? raw(' aria-invalid="true"') : '');
  const summary = errs.length
    ? html`<div class="error" id="link-errors" role="alert"><p>${m.errorsTitle}</p><ul>${errs.map((e) => html`<li>${e}</li>`)}</ul></div>`
    : '';
  const checked = (on: boolean) => (on ? raw(' checked') : '');
  return html`<p><a href="/links">${m.back}</a></p>
<h1>${m.newTitle}</h1>
<p class="muted">${m.newHelp}</p>
${summary}
<form method="post" action="/links" id="link-form" class="card wide">${csrfField(v.csrfToken)}
<input type="hidden" name="form_key" value="${f.formKey}">
<label for="link-description">${m.description}</label>
<input id="link-description" name="description" required maxlength="255" value="${f.description}" aria-describedby="link-description-help"${invalid('description')}>
<p class="muted hint" id="link-description-help">${m.descriptionHelp}</p>
<label for="link-country">${m.country}</label>
<select id="link-country" name="country_code" required aria-describedby="link-country-help"${invalid('country_code')}><option value=""></option>${v.countries.map(
    (c) =>
      html`<option value="${c.countryCode}"${c.countryCode === f.country ? raw(' selected') : ''}>${c.countryName} (${c.countryCode}), ${c.currency}</option>`,
  )}</select>
<p class="muted hint" id="link-country-help">${m.countryHelp}</p>
<fieldset><legend>${m.amountKind}</legend>
<label class="choice"><input type="radio" name="amount_kind" value="fixed" id="kind-fixed"${checked(f.amountKind === 'fixed')}> ${m.amountFixed}</label>
<label for="link-amount">${m.amountFrancs}</label>
<input id="link-amount" name="amount" inputmode="numeric" maxlength="32" value="${f.amount}"${invalid('amount')}>
<label class="choice"><input type="radio" name="amount_kind" value="range" id="kind-range"${checked(f.amountKind === 'range')}> ${m.amountRange}</label>
<label for="link-min">${m.minAmount}</label>
<input id="link-min" name="min_amount" inputmode="numeric" maxlength="32" value="${f.minAmount}"${invalid('min_amount')}>
<label for="link-max">${m.maxAmount}</label>
<input id="link-max" name="max_amount" inputmode="numeric" maxlength="32" value="${f.maxAmount}"${invalid('max_amount')}>
</fieldset>
<label class="choice"><input type="checkbox" name="reusable" value="1" id="link-reusable"${checked(f.reusable)}> ${m.reusableField}</label>
<label for="link-max-payments">${m.maxPaymentsField}</label>
<input id="link-max-payments" name="max_payments" inputmode="numeric" maxlength="16" value="${f.maxPayments}"${invalid('max_payments')}>
<label for="link-expires">${m.expiresField}</label>
<input id="link-expires" name="expires_at" type="datetime-local" value="${f.expiresAt}"${invalid('expires_at')}>
<label for="link-redirect">${m.redirectField}</label>
<input id="link-redirect" name="redirect_url" type="url" maxlength="2048" value="${f.redirectUrl}" placeholder="https://"${invalid('redirect_url')}>
<p><button type="submit">${m.submit}</button> <a href="/links">${m.cancel}</a></p>
</form>`;
}
