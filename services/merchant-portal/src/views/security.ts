import type { MerchantUserAccount } from '@mm/db/merchant-users';
import type { AuditEntry } from '@mm/db/staff';
import { csrfField, html, jsonBlock, orDash, raw, when, type SafeHtml } from '@mm/web';
import type { Locale } from '../i18n/locale.js';
import { securityMessages } from '../i18n/security.js';

export interface SecurityFilters {
  action: string;
  user: string;
}

export interface SecurityView {
  locale: Locale;
  csrfToken: string;
  required: boolean;
  /** Whether the viewer may change the setting (security:manage: owners). */
  canManage: boolean;
  team: MerchantUserAccount[];
  filters: SecurityFilters;
  errors: string[];
  /** Null when the filters were refused. */
  entries: AuditEntry[] | null;
  olderQuery: string | null;
  paged: boolean;
  newestQuery: string;
  notice?: string;
  error?: string;
}

function settingSection(v: SecurityView): SafeHtml {
  const s = securityMessages(v.locale);
  const state = html`<p id="team-two-factor" data-required="${v.required ? 'yes' : 'no'}">${
    v.required ? s.required : s.notRequired
  }</p>`;
  if (!v.canManage) return html`${state}<p class="muted">${s.onlyOwner}</p>`;
  return html`${state}<form method="post" action="/security/two-factor-required" id="team-two-factor-form">${csrfField(v.csrfToken)}
<input type="hidden" name="required" value="${v.required ? 'off' : 'on'}">
<label for="owner-code">${s.ownerCode}</label>
<input id="owner-code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="32">
<p><button type="submit"${v.required ? raw(' class="danger"') : ''}>${v.required ? s.stopRequiring : s.requireIt}</button></p></form>`;
}

function filterForm(v: SecurityView): SafeHtml {
  const s = securityMessages(v.locale);
  const options = v.team.map(
    (u) => html`<option value="${u.id}"${u.id === v.filters.user ? raw(' selected') : ''}>${u.email}</option>`,
  );
  return html`<form method="get" action="/security" id="security-filters" class="filters">
<div><label for="f-action">${s.action}</label><input id="f-action" name="action" value="${v.filters.action}" placeholder="portal.login"></div>
<div><label for="f-user">${s.member}</label><select id="f-user" name="user"><option value="">${s.anyone}</option>${options}</select></div>
<div><button type="submit">${s.filter}</button> <a href="/security">${s.clear}</a></div></form>`;
}

function entriesTable(v: SecurityView, entries: AuditEntry[]): SafeHtml {
  const s = securityMessages(v.locale);
  if (entries.length === 0) return html`<p class="muted" id="no-entries">${s.noEntries}</p>`;
  const rows = entries.map(
    (e) => html`<tr data-audit-id="${e.id}" data-action="${e.action}">
<td data-label="${s.when}">${when(e.createdAt)}</td><td data-label="${s.who}">${e.actor}</td><td data-label="${s.what}"><code>${e.action}</code></td>
<td data-label="${s.details}">${jsonBlock(e.after)}</td><td data-label="${s.from}">${orDash(e.ip)}</td></tr>`,
  );
  const older = v.olderQuery
    ? html`<a id="older-page" href="/security?${v.olderQuery}">${s.older}</a>`
    : html`<span class="muted">${s.noOlder}</span>`;
  return html`<div class="scroll"><table id="audit-table" class="cards"><thead><tr><th>${s.when}</th><th>${s.who}</th><th>${s.what}</th>
<th>${s.details}</th><th>${s.from}</th></tr></thead><tbody>${rows}</tbody></table></div>
<p class="pager">${v.paged ? html`<a id="newest-page" href="/security?${v.newestQuery}">${s.newest}</a> · ` : ''}${older}</p>`;
}

export function securityView(v: SecurityView): SafeHtml {
  const s = securityMessages(v.locale);
  const alerts = html`${v.error ? html`<p class="error" id="security-error" role="alert">${v.error}</p>` : ''}${
    v.notice ? html`<p class="notice" id="security-notice" role="status">${v.notice}</p>` : ''
  }`;
  const errors =
    v.errors.length > 0
      ? html`<div class="error" id="filter-errors" role="alert"><ul>${v.errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
      : '';
  return html`<h1>${s.title}</h1>${alerts}
<h2>${s.teamTwoFactor}</h2>${settingSection(v)}
<h2>${s.logTitle}</h2><p class="muted">${s.logHelp}</p>${filterForm(v)}${errors}${v.entries ? entriesTable(v, v.entries) : ''}`;
}
