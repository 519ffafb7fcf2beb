import type { SearchPage } from '@mm/db/payments';
import type { BalanceRow } from '@mm/db/ledger';
import { maskMsisdn, OPERATORS, TRANSACTION_STATUSES } from '@mm/domain';
import { amount, csrfField, encodeCursor, html, raw, statusBadge, when, type SafeHtml } from '@mm/web';
import type { CashoutsText } from '../i18n/cashouts.js';
import type { PaymentsText } from '../i18n/payments.js';
import { cashoutFilterQuery } from '../routes/cashouts-filters.js';
import type { CashoutFormValues } from '../routes/cashouts-form.js';
import type { ParsedPaymentFilters } from '../routes/payments-filters.js';

export interface CashoutFormState extends CashoutFormValues {
  error?: string;
}

export interface CashoutsView {
  /** DISBURSEMENT_ENABLED: the form is shown only then (the route refuses a POST otherwise). */
  enabled: boolean;
  balances: BalanceRow[];
  csrfToken: string;
  form: CashoutFormState;
  filters: ParsedPaymentFilters;
  countries: { countryCode: string; countryName: string }[];
  /** Null when the filters were refused (no query ran). */
  page: SearchPage | null;
}

/** A cash-out's status as the merchant reads it: AWAITING_APPROVAL says in words that it waits for us. */
export function cashoutStatus(m: CashoutsText, t: { status: string; failureCode: string | null }): SafeHtml {
  if (t.status === 'AWAITING_APPROVAL')
    return html`${statusBadge(t.status)} <strong data-awaiting-approval>${m.awaitingApproval}</strong>`;
  if (t.failureCode === 'REJECTED_BY_APPROVER')
    return html`${statusBadge(t.status)} <span data-declined>${m.declined}</span>`;
  return statusBadge(t.status);
}

/** The request (or why there is none), the balances it draws on, then the list with its GET search. */
export function cashoutsView(m: CashoutsText, p: PaymentsText, v: CashoutsView): SafeHtml {
  return html`<h1>${m.title}</h1>
<p class="muted">${m.intro}</p>
${balances(m, v.balances)}
${v.enabled ? requestForm(m, v) : disabledNotice(m, v.form.error)}
<h2>${m.listTitle}</h2>
${search(m, p, v)}
${v.page ? results(m, p, v.page, v.filters) : ''}`;
}

function balances(m: CashoutsText, rows: BalanceRow[]): SafeHtml {
  return html`<h2>${m.balancesTitle}</h2><div class="scroll"><table id="cashout-balances"><thead><tr>
<th>${m.balanceCountry}</th><th>${m.balanceAvailable}</th></tr></thead><tbody>${rows.map(
    (b) =>
      html`<tr data-country="${b.countryCode}"><td>${b.countryName} (${b.countryCode})</td><td data-available="${b.available.toString()}">${amount(b.available, b.currency)}</td></tr>`,
  )}</tbody></table></div>`;
}

function disabledNotice(m: CashoutsText, error: string | undefined): SafeHtml {
  return html`<section class="card" id="cashouts-disabled"><h2>${m.disabledTitle}</h2>
${error ? html`<p class="error" id="cashout-error" role="alert">${error}</p>` : ''}<p>${m.disabled}</p></section>`;
}

function requestForm(m: CashoutsText, v: CashoutsView): SafeHtml {
  const f = v.form;
  return html`<section class="card" id="cashout-request">
<h2>${m.requestTitle}</h2>
<p class="muted">${m.requestHelp}</p>
<p class="muted">${m.approvalHelp}</p>
${f.error ? html`<p class="error" id="cashout-error" role="alert">${f.error}</p>` : ''}
<form method="post" action="/cashouts" id="cashout-form">${csrfField(v.csrfToken)}
<input type="hidden" name="idempotency_key" value="${f.idempotencyKey}">
<label for="cashout-beneficiary">${m.beneficiary}</label>
<input id="cashout-beneficiary" name="beneficiary_msisdn" inputmode="tel" maxlength="32" required value="${f.beneficiary}" placeholder="+2250707000001">
<label for="cashout-amount">${m.amount}</label>
<input id="cashout-amount" name="amount" inputmode="numeric" required maxlength="32" value="${f.amount}">
<label for="cashout-reason">${m.reason}</label>
<input id="cashout-reason" name="reason" maxlength="255" value="${f.reason}">
<label for="cashout-operator">${m.operator}</label>
<select id="cashout-operator" name="operator"><option value="">${m.operatorAuto}</option>
${OPERATORS.map((o) => html`<option value="${o}"${o === f.operator ? raw(' selected') : ''}>${o}</option>`)}
</select>
<label for="cashout-code">${m.stepUpCode}</label>
<input id="cashout-code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="32">
<p><button type="submit">${m.submit}</button></p>
</form></section>`;
}

function search(m: CashoutsText, p: PaymentsText, v: CashoutsView): SafeHtml {
  const f = v.filters.form;
  const select = (name: 'status' | 'country', label: string, options: { value: string; label: string }[]) =>
    html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">
<option value="">${p.any}</option>
${options.map((o) => html`<option value="${o.value}"${o.value === f[name] ? raw(' selected') : ''}>${o.label}</option>`)}
</select></div>`;
  const input = (name: 'from' | 'to' | 'number', label: string, type: string, extra = '') =>
    html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${f[name]}"${raw(extra)}></div>`;
  const errors =
    v.filters.errors.length > 0
      ? html`<div class="error" id="search-errors" role="alert"><p>${p.notRun}</p><ul>${v.filters.errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
      : '';
  return html`<form method="get" action="/cashouts" id="cashout-search" class="filters">
${select(
  'status',
  p.status,
  TRANSACTION_STATUSES.map((s) => ({ value: s, label: s })),
)}
${select(
  'country',
  p.country,
  v.countries.map((c) => ({ value: c.countryCode, label: `${c.countryName} (${c.countryCode})` })),
)}
${input('from', p.from, 'date')}
${input('to', p.to, 'date')}
${input('number', m.beneficiary, 'text', ' placeholder="+2250707000001" inputmode="tel"')}
<div><button type="submit">${p.search}</button> <a href="/cashouts">${p.clear}</a></div>
</form>${errors}`;
}

function results(m: CashoutsText, p: PaymentsText, page: SearchPage, filters: ParsedPaymentFilters): SafeHtml {
  if (page.rows.length === 0) {
    return html`<p id="no-results" class="muted">${filters.after ? m.noResultsBeyond : m.noResults}</p>`;
  }
  const rows = page.rows.map(
    (t) => html`<tr data-cashout-id="${t.id}">
<td><a href="/cashouts/${t.id}">${when(t.createdAt)}</a></td><td>${cashoutStatus(m, t)}</td>
<td>${amount(t.amount, t.currency)}</td><td data-msisdn>${maskMsisdn(t.msisdn)}</td><td>${t.operator}</td><td>${t.countryCode}</td></tr>`,
  );
  const older = page.next
    ? html`<a id="older-page" href="/cashouts?${cashoutFilterQuery(filters.form, { after: encodeCursor(page.next) })}">${p.older}</a>`
    : html`<span class="muted">${m.noOlder}</span>`;
  const newest = filters.after
    ? html`<a id="newest-page" href="/cashouts?${cashoutFilterQuery(filters.form)}">${p.newest}</a> · `
    : '';
  return html`<div class="scroll"><table id="cashouts-table"><thead><tr><th>${p.created}</th><th>${p.status}</th>
<th>${p.amount}</th><th>${m.recipient}</th><th>${p.operator}</th><th>${p.country}</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="pager">${newest}${older}</p>`;
}
