import type { AccountCashinOutcomes, OperatorAccountSummary } from '@mm/db/operator-accounts';
import type { SubsidiarySummary } from '@mm/db/merchants';
import { DOWN_REASON_MAX, OPERATOR_API_NAMES, OPERATORS } from '@mm/domain';
import { csrfField, jsonBlock, when, html, type SafeHtml } from '@mm/web';
import type { AccountCalls, OperatorCallHealth } from '../operator-health.js';

export interface OperatorHealthView {
  /** The last hour's cash-ins by account ("CI:MTN"), from the database. */
  cashins: Map<string, AccountCashinOutcomes>;
  /** The operator calls, from the workers' /metrics. */
  calls: OperatorCallHealth;
}

export interface OperatorListView {
  accounts: OperatorAccountSummary[];
  /** For the creation form's country list. */
  subsidiaries: SubsidiarySummary[];
  /** operators:manage: the creation form and each account's forms. */
  canManage: boolean;
  csrfToken: string;
  notice?: string;
  health: OperatorHealthView;
}

/** The id of an account in the page: rows tr[data-account="CI:MTN"], forms under #manage-CI-MTN. */
const slug = (a: OperatorAccountSummary) => `${a.countryCode}-${a.operator}`;
const base = (a: OperatorAccountSummary) => `/operators/${a.countryCode}/${a.operator}`;

function status(a: OperatorAccountSummary): SafeHtml {
  const enabled = a.enabled
    ? html`<span class="badge ok">enabled</span>`
    : html`<span class="badge off">disabled</span>`;
  const down = a.markedDownAt
    ? html`<br><span class="badge off" data-down>down</span> since ${when(a.markedDownAt)}: <span class="down-reason">${a.markedDownReason ?? ''}</span>`
    : '';
  return html`${enabled}${down}`;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const seconds = (s: number | null) => (s === null ? '—' : s < 1 ? `${Math.round(s * 1000)} ms` : `${s.toFixed(1)} s`);
const minutes = (ms: number) =>
  ms < 90_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`;

function callFigures(c: AccountCalls | undefined): SafeHtml {
  if (!c || c.calls === 0) return html`no call`;
  return html`<strong>${c.calls}</strong> calls, <span data-success-rate>${percent(c.successRate ?? 0)}</span> ok;
unavailable <span data-unavailable>${c.unavailable}</span>, refused <span data-refused>${c.refused}</span>, error <span data-error>${c.error}</span>;
p50 <span data-p50>${seconds(c.p50)}</span>, p95 <span data-p95>${seconds(c.p95)}</span>`;
}

/** The account's health: the database's last hour, then its operator calls (never a zero for a process not read). */
function healthCell(key: string, h: OperatorHealthView): SafeHtml {
  const c = h.cashins.get(key);
  const total = c ? c.success + c.failed + c.expired + c.pending : 0;
  const cashins =
    c && total > 0
      ? html`<strong>${total}</strong> cash-ins: ${c.success} SUCCESS, ${c.failed} FAILED, ${c.expired} EXPIRED, ${c.pending} pending`
      : html`no cash-in`;
  const calls = h.calls;
  const read = calls.sources.filter((s) => s.ok).length;
  const partial =
    read < calls.sources.length
      ? html` <span class="badge off" data-partial>${read} of ${calls.sources.length} processes read</span>`
      : '';
  let callsHtml: SafeHtml | string = '';
  if (!calls.configured) callsHtml = '';
  else if (read === 0)
    callsHtml = html`<div data-health-calls>Operator calls: <span class="badge off">unknown</span> (no process could be read)</div>`;
  else {
    const recent = calls.recent
      ? html`<div data-health-recent>Last ${minutes(calls.recent.sinceMs)}: ${callFigures(calls.recent.byAccount.get(key))}${calls.recent.partial ? html` <span class="badge off">partial</span>` : ''}</div>`
      : '';
    callsHtml = html`<div data-health-calls>Since the processes started: ${callFigures(calls.cumulative.get(key))}${partial}</div>${recent}`;
  }
  return html`<td class="health" data-health><div data-health-cashins>Last hour: ${cashins}</div>${callsHtml}</td>`;
}

function metricsSources(calls: OperatorCallHealth): SafeHtml {
  if (!calls.configured) {
    return html`<p class="muted" id="operator-metrics-sources">Operator calls are not shown: OPERATOR_METRICS_URLS names no process to read (docs/backoffice.md).</p>`;
  }
  const items = calls.sources.map(
    (s) =>
      html`<li data-source="${s.url}"><code>${s.url}</code> ${
        s.ok
          ? html`<span class="badge ok">read</span>`
          : html`<span class="badge off" data-unread>not read</span> ${s.error ?? ''}`
      }</li>`,
  );
  const recent = calls.recent
    ? html`"Last ${minutes(calls.recent.sinceMs)}" compares with an earlier load of this page kept in memory.`
    : html`Load the page again in a while for the calls of the last minutes.`;
  return html`<div id="operator-metrics-sources"><p class="muted">Operator calls, summed over the processes that call the operators
(a process not read is left out of the figures, never counted as zero). ${recent}</p><ul>${items}</ul></div>`;
}

function row(a: OperatorAccountSummary, health: OperatorHealthView): SafeHtml {
  return html`<tr data-account="${a.countryCode}:${a.operator}">
<td><code>${a.countryCode}</code></td><td>${a.operator}</td><td><code>${a.api}</code></td>
<td>${a.baseUrl ?? html`<span class="muted">not set</span>`}</td>
<td class="prefixes">${a.prefixes.length > 0 ? a.prefixes.join(', ') : html`<span class="muted">none (only when named)</span>`}</td>
<td class="status">${status(a)}</td>
<td class="credentials">${a.hasCredentials ? 'yes' : html`<span class="muted">no</span>`}</td>
<td class="settings">${Object.keys(a.settings).length > 0 ? jsonBlock(a.settings) : html`<span class="muted">{}</span>`}</td>
${healthCell(`${a.countryCode}:${a.operator}`, health)}</tr>`;
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
${metricsSources(v.health.calls)}
<table id="operators-table"><thead><tr><th>Country</th><th>Operator</th><th>API</th><th>Base URL</th><th>Prefixes</th>
<th>Status</th><th>Credentials set</th><th>Settings</th><th>Health</th></tr></thead>
<tbody>${v.accounts.length > 0 ? v.accounts.map((a) => row(a, v.health)) : html`<tr><td colspan="9" class="muted">No operator account.</td></tr>`}</tbody></table>
${v.canManage ? html`<h2>Change an account</h2>${v.accounts.map((a) => manage(a, v.csrfToken))}${createForm(v)}` : ''}`;
}
