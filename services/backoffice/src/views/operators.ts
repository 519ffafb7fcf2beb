import type { OperatorAccountSummary, SubsidiarySummary } from '@mm/db/reference-data';
import { DOWN_REASON_MAX, OPERATOR_API_NAMES, OPERATORS } from '@mm/domain';
import { csrfField, jsonBlock, when } from './format.js';
import { html, type SafeHtml } from './html.js';

export interface OperatorListView {
  accounts: OperatorAccountSummary[];
  /** For the creation form's country list. */
  subsidiaries: SubsidiarySummary[];
  /** operators:manage: the creation form and each account's forms. */
  canManage: boolean;
  csrfToken: string;
  notice?: string;
}

/** The id of an account in the page: rows tr[data-account="CI:MTN"], forms under #manage-CI-MTN. */
const slug = (a: OperatorAccountSummary) => `${a.countryCode}-${a.operator}`;
const base = (a: OperatorAccountSummary) => `/operators/${a.countryCode}/${a.operator}`;

function status(a: OperatorAccountSummary): SafeHtml {
  const enabled = a.enabled ? html`<span class="badge ok">enabled</span>` : html`<span class="badge off">disabled</span>`;
  const down = a.markedDownAt
    ? html`<br><span class="badge off" data-down>down</span> since ${when(a.markedDownAt)}: <span class="down-reason">${a.markedDownReason ?? ''}</span>`
    : '';
  return html`${enabled}${down}`;
}

function row(a: OperatorAccountSummary): SafeHtml {
  // Health (success rate, latency, errors of the account) is to be added here later: it is not built yet.
  return html`<tr data-account="${a.countryCode}:${a.operator}">
<td><code>${a.countryCode}</code></td><td>${a.operator}</td><td><code>${a.api}</code></td>
<td>${a.baseUrl ?? html`<span class="muted">not set</span>`}</td>
<td class="prefixes">${a.prefixes.length > 0 ? a.prefixes.join(', ') : html`<span class="muted">none (only when named)</span>`}</td>
<td class="status">${status(a)}</td>
<td class="credentials">${a.hasCredentials ? 'yes' : html`<span class="muted">no</span>`}</td>
<td class="settings">${Object.keys(a.settings).length > 0 ? jsonBlock(a.settings) : html`<span class="muted">{}</span>`}</td>
<td class="health muted" data-health>—</td></tr>`;
}

function manage(a: OperatorAccountSummary, token: string): SafeHtml {
  const path = base(a);
  const toggle = a.enabled ? 'disable' : 'enable';
  const down = a.markedDownAt
    ? html`<form method="post" action="${path}/up">${csrfField(token)}
<p class="muted">Marked down: new payments for it answer 503 until it is marked up.</p>
<button type="submit" class="secondary">Mark up</button></form>`
    : html`<form method="post" action="${path}/down">${csrfField(token)}
<label for="reason-${slug(a)}">Mark down (new payments for it answer 503); why</label>
<input id="reason-${slug(a)}" name="reason" required minlength="3" maxlength="${DOWN_REASON_MAX}">
<button type="submit" class="danger">Mark down</button></form>`;
  return html`<details class="operator-manage" id="manage-${slug(a)}"><summary>${a.countryCode} ${a.operator} (<code>${a.api}</code>)</summary>
<section class="card">
<form method="post" action="${path}/${toggle}">${csrfField(token)}
<button type="submit" class="${a.enabled ? 'danger' : 'secondary'}">${a.enabled ? 'Disable' : 'Enable'}</button></form>
${down}
<form method="post" action="${path}/prefixes">${csrfField(token)}
<label for="prefixes-${slug(a)}">Prefixes ("+" and digits, separated by commas or spaces; empty: none)</label>
<input id="prefixes-${slug(a)}" name="prefixes" value="${a.prefixes.join(', ')}">
<button type="submit">Save the prefixes</button></form>
<form method="post" action="${path}/config">${csrfField(token)}
<label for="base-url-${slug(a)}">Base URL (empty: not set)</label>
<input id="base-url-${slug(a)}" name="base_url" type="url" maxlength="2048" value="${a.baseUrl ?? ''}">
<label for="settings-${slug(a)}">Settings (a JSON object; never a secret: every role sees them)</label>
<textarea id="settings-${slug(a)}" name="settings" rows="4">${JSON.stringify(a.settings, null, 2)}</textarea>
<button type="submit">Save the base URL and settings</button></form>
<form method="post" action="${path}/credentials" autocomplete="off">${csrfField(token)}
<p>Credentials set: <strong>${a.hasCredentials ? 'yes' : 'no'}</strong>. They are never shown back; saving replaces them all.</p>
<label for="credentials-${slug(a)}">Credentials (one name=value per line, or a JSON object)</label>
<textarea id="credentials-${slug(a)}" name="credentials" rows="4" spellcheck="false" autocomplete="off" placeholder="apiUser=...&#10;apiKey=..."></textarea>
<button type="submit">Save the credentials</button></form>
</section></details>`;
}

function createForm(v: OperatorListView): SafeHtml {
  return html`<section class="card" id="operator-create">
<h2>New operator account</h2>
<form method="post" action="/operators">${csrfField(v.csrfToken)}
<label for="operator-country">Country</label>
<select id="operator-country" name="country">${v.subsidiaries.map((s) => html`<option value="${s.countryCode}">${s.countryCode} ${s.countryName}</option>`)}</select>
<label for="operator-operator">Operator</label>
<select id="operator-operator" name="operator">${OPERATORS.map((o) => html`<option value="${o}">${o}</option>`)}</select>
<label for="operator-api">API</label>
<select id="operator-api" name="api">${OPERATOR_API_NAMES.map((a) => html`<option value="${a}">${a}</option>`)}</select>
<p class="muted">Created disabled, without prefixes: set its base URL, credentials and prefixes, then enable it.</p>
<p><button type="submit">Create the account</button></p></form></section>`;
}

/** Every operator account of every subsidiary; never a credential (the summaries carry none). */
export function operatorListView(v: OperatorListView): SafeHtml {
  return html`<h1>Operator accounts</h1>
${v.notice ? html`<p class="notice" id="operators-notice">${v.notice}</p>` : ''}
<p class="muted">A payment goes to the enabled account whose prefix is the longest match of the customer's number
(or to the operator the merchant names). Disabled or marked down: new payments for it answer 503. Changes apply at once.</p>
<table id="operators-table"><thead><tr><th>Country</th><th>Operator</th><th>API</th><th>Base URL</th><th>Prefixes</th>
<th>Status</th><th>Credentials set</th><th>Settings</th><th>Health</th></tr></thead>
<tbody>${v.accounts.length > 0 ? v.accounts.map(row) : html`<tr><td colspan="9" class="muted">No operator account.</td></tr>`}</tbody></table>
${v.canManage ? html`<h2>Change an account</h2>${v.accounts.map((a) => manage(a, v.csrfToken))}${createForm(v)}` : ''}`;
}
