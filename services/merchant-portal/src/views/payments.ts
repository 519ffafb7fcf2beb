import type { SearchPage } from '@mm/db/payments';
import { maskMsisdn, OPERATORS, TRANSACTION_STATUSES } from '@mm/domain';
import { amount, encodeCursor, html, raw, statusBadge, when, type SafeHtml } from '@mm/web';
import type { PaymentsText } from '../i18n/payments.js';
import { paymentFilterQuery, type ParsedPaymentFilters, type PaymentFilterForm } from '../routes/payments-filters.js';

export interface PaymentsView {
  filters: ParsedPaymentFilters;
  countries: { countryCode: string; countryName: string }[];
  /** Null when the filters were refused (no query ran). */
  page: SearchPage | null;
}

type Key = keyof PaymentFilterForm;

function select(
  m: PaymentsText,
  name: Key,
  label: string,
  current: string,
  options: { value: string; label: string }[],
) {
  return html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">
<option value="">${m.any}</option>
${options.map((o) => html`<option value="${o.value}"${o.value === current ? raw(' selected') : ''}>${o.label}</option>`)}
</select></div>`;
}

function input(name: Key, label: string, current: string, type = 'text', extra: SafeHtml | string = '') {
  return html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${current}"${extra}></div>`;
}

export const typeLabel = (m: PaymentsText, type: string) =>
  type === 'CASHIN' ? m.cashin : type === 'CASHOUT' ? m.cashout : type;

/** A GET form, so a search is a plain link; then the page of results (tr[data-payment-id]), newest first. */
export function paymentsView(m: PaymentsText, v: PaymentsView): SafeHtml {
  const f = v.filters.form;
  const form = html`<form method="get" action="/payments" id="payment-search" class="filters">
${select(
  m,
  'status',
  m.status,
  f.status,
  TRANSACTION_STATUSES.map((s) => ({ value: s, label: s })),
)}
${select(m, 'type', m.type, f.type, [
  { value: 'CASHIN', label: m.cashin },
  { value: 'CASHOUT', label: m.cashout },
])}
${select(
  m,
  'operator',
  m.operator,
  f.operator,
  OPERATORS.map((o) => ({ value: o, label: o })),
)}
${select(
  m,
  'country',
  m.country,
  f.country,
  v.countries.map((c) => ({ value: c.countryCode, label: `${c.countryName} (${c.countryCode})` })),
)}
${input('from', m.from, f.from, 'date')}
${input('to', m.to, f.to, 'date')}
${input('amount_min', m.amountMin, f.amount_min, 'text', raw(' inputmode="numeric"'))}
${input('amount_max', m.amountMax, f.amount_max, 'text', raw(' inputmode="numeric"'))}
${input('number', m.number, f.number, 'text', raw(' placeholder="+2250707000001" inputmode="tel"'))}
${input('order_id', m.orderId, f.order_id)}
${f.link ? html`<input type="hidden" name="link" value="${f.link}">` : ''}
<div><button type="submit">${m.search}</button> <a href="/payments">${m.clear}</a></div>
</form>`;
  const errors =
    v.filters.errors.length > 0
      ? html`<div class="error" id="search-errors" role="alert"><p>${m.notRun}</p><ul>${v.filters.errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
      : '';
  const linkId = v.filters.search.paymentLinkId;
  const onlyLink = linkId
    ? html`<p id="link-filter" class="notice">${m.linkFilter} <a href="/links/${linkId}">${m.linkFilterOpen}</a> · <a href="/payments">${m.clear}</a></p>`
    : '';
  return html`<h1>${m.title}</h1>${onlyLink}${form}${errors}${v.page ? results(m, v.page, v.filters) : ''}`;
}

function results(m: PaymentsText, page: SearchPage, filters: ParsedPaymentFilters): SafeHtml {
  if (page.rows.length === 0) {
    return html`<p id="no-results" class="muted">${filters.after ? m.noResultsBeyond : m.noResults}</p>`;
  }
  const rows = page.rows.map(
    (t) => html`<tr data-payment-id="${t.id}">
<td><a href="/payments/${t.id}">${when(t.createdAt)}</a></td>
<td><a href="/payments/${t.id}">${t.merchantOrderId}</a></td><td>${typeLabel(m, t.type)}</td><td>${statusBadge(t.status)}</td>
<td>${amount(t.amount, t.currency)}</td><td data-msisdn>${maskMsisdn(t.msisdn)}</td><td>${t.operator}</td><td>${t.countryCode}</td></tr>`,
  );
  const older = page.next
    ? html`<a id="older-page" href="/payments?${paymentFilterQuery(filters.form, { after: encodeCursor(page.next) })}">${m.older}</a>`
    : html`<span class="muted">${m.noOlder}</span>`;
  const newest = filters.after
    ? html`<a id="newest-page" href="/payments?${paymentFilterQuery(filters.form)}">${m.newest}</a> · `
    : '';
  return html`<div class="scroll"><table id="payments-table"><thead><tr><th>${m.created}</th><th>${m.orderId}</th><th>${m.type}</th>
<th>${m.status}</th><th>${m.amount}</th><th>${m.customer}</th><th>${m.operator}</th><th>${m.country}</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="pager">${newest}${older}</p>`;
}
