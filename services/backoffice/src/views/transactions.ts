import type { SearchPage } from '@mm/db/payments';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@mm/domain';
import { encodeCursor, filterQuery, type FilterForm, type ParsedFilters } from '../routes/transaction-filters.js';
import { amount, statusBadge, when, html, raw, type SafeHtml } from '@mm/web';

export interface TransactionsView {
  filters: ParsedFilters;
  merchants: { id: string; name: string }[];
  countries: { countryCode: string; countryName: string }[];
  /** Null when the filters were refused (no query ran). */
  page: SearchPage | null;
}

function select(
  name: keyof FilterForm,
  label: string,
  current: string,
  options: { value: string; label: string }[],
): SafeHtml {
  return html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">
<option value="">Any</option>
${options.map((o) => html`<option value="${o.value}"${o.value === current ? raw(' selected') : ''}>${o.label}</option>`)}
</select></div>`;
}

function input(name: keyof FilterForm, label: string, current: string, type = 'text', placeholder = ''): SafeHtml {
  return html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${current}" placeholder="${placeholder}"></div>`;
}

/** A GET form, so a search is a plain link; then the page of results (tr[data-transaction-id]). */
export function transactionsView(v: TransactionsView): SafeHtml {
  const f = v.filters.form;
  const form = html`<form method="get" action="/transactions" id="transaction-search" class="filters">
${input('id', 'Transaction id', f.id)}
${input('order_id', 'Merchant order id', f.order_id)}
${input('number', 'Number (international form)', f.number, 'text', '+2250707000001')}
${select(
  'status',
  'Status',
  f.status,
  TRANSACTION_STATUSES.map((s) => ({ value: s, label: s })),
)}
${select(
  'type',
  'Type',
  f.type,
  TRANSACTION_TYPES.map((t) => ({ value: t, label: t })),
)}
${select(
  'merchant',
  'Merchant',
  f.merchant,
  v.merchants.map((m) => ({ value: m.id, label: m.name })),
)}
${select(
  'country',
  'Country',
  f.country,
  v.countries.map((c) => ({ value: c.countryCode, label: `${c.countryName} (${c.countryCode})` })),
)}
${input('from', 'From (UTC day)', f.from, 'date')}
${input('to', 'To (UTC day, included)', f.to, 'date')}
<div><button type="submit">Search</button> <a href="/transactions">Clear</a></div>
</form>`;

  const errors =
    v.filters.errors.length > 0
      ? html`<div class="error" id="search-errors" role="alert"><p>The search was not run:</p><ul>${v.filters.errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
      : '';
  return html`<h1>Transactions</h1>${form}${errors}${v.page ? results(v.page, v.filters) : ''}`;
}

function results(page: SearchPage, filters: ParsedFilters): SafeHtml {
  if (page.rows.length === 0) {
    return html`<p id="no-results" class="muted">No transaction matches${filters.after ? ' beyond this page' : ''}.</p>`;
  }
  const rows = page.rows.map(
    (t) => html`<tr data-transaction-id="${t.id}">
<td><a href="/transactions/${t.id}">${when(t.createdAt)}</a></td>
<td>${t.merchant.name}</td><td>${t.merchantOrderId}</td><td>${t.type}</td><td>${statusBadge(t.status)}</td>
<td>${amount(t.amount, t.currency)}</td><td>${t.msisdn}</td><td>${t.countryCode}</td></tr>`,
  );
  const older = page.next
    ? html`<a id="older-page" href="/transactions?${filterQuery(filters.form, { after: encodeCursor(page.next) })}">Older →</a>`
    : html`<span class="muted">No older transactions.</span>`;
  const newest = filters.after
    ? html`<a id="newest-page" href="/transactions?${filterQuery(filters.form)}">← Newest</a> · `
    : '';
  return html`<table id="transactions-table"><thead><tr><th>Created</th><th>Merchant</th><th>Order id</th><th>Type</th><th>Status</th>
<th>Amount</th><th>Number</th><th>Country</th></tr></thead><tbody>${rows}</tbody></table>
<p class="pager">${newest}${older}</p>`;
}
