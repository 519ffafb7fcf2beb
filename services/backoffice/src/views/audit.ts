import type { AuditEntry } from '@mm/db/staff';
import { jsonBlock, orDash, when, html, type SafeHtml } from '@mm/web';

export interface AuditFilterForm {
  target_type: string;
  target_id: string;
  actor: string;
}

export interface AuditView {
  form: AuditFilterForm;
  errors: string[];
  /** Null when the filters were refused. */
  entries: AuditEntry[] | null;
  /** Query string of the next (older) page, or null on the last one. */
  olderQuery: string | null;
  /** Whether this is a later page (a link back to the newest is shown). */
  paged: boolean;
  newestQuery: string;
}

function target(e: AuditEntry): SafeHtml {
  if (!e.targetType) return orDash(null);
  const filter = `/audit?${new URLSearchParams({ target_type: e.targetType, ...(e.targetId ? { target_id: e.targetId } : {}) }).toString()}`;
  return html`<a href="${filter}" title="Everything done to it">${e.targetType}</a>${e.targetId ? html`<br><code>${e.targetId}</code>` : ''}`;
}

/** Newest first: who (their email at the time), what, when, on what, and the record before and after. */
export function auditView(v: AuditView): SafeHtml {
  const input = (name: keyof AuditFilterForm, label: string) =>
    html`<div><label for="a-${name}">${label}</label><input id="a-${name}" name="${name}" value="${v.form[name]}"></div>`;
  const form = html`<form method="get" action="/audit" id="audit-search" class="filters">
${input('actor', 'Actor (staff email)')}${input('target_type', 'Target type (staff, webhook_event, ...)')}${input('target_id', 'Target id')}
<div><button type="submit">Filter</button> <a href="/audit">Clear</a></div></form>`;
  const errors =
    v.errors.length > 0
      ? html`<div class="error" id="audit-errors" role="alert"><ul>${v.errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
      : '';
  return html`<h1>Audit log</h1>${form}${errors}${v.entries ? entriesTable(v, v.entries) : ''}`;
}

function entriesTable(v: AuditView, entries: AuditEntry[]): SafeHtml {
  if (entries.length === 0) return html`<p class="muted" id="no-entries">No entry matches.</p>`;
  const rows = entries.map(
    (e) => html`<tr data-audit-id="${e.id}" data-action="${e.action}">
<td>${when(e.createdAt)}</td><td><a href="/audit?${new URLSearchParams({ actor: e.actor }).toString()}" title="Everything this person did">${e.actor}</a>${e.staffId ? '' : html`<br><span class="muted">not logged in</span>`}</td>
<td><code>${e.action}</code></td><td>${target(e)}</td><td>${jsonBlock(e.before)}</td><td>${jsonBlock(e.after)}</td>
<td class="muted">${orDash(e.ip)}<br><code>${orDash(e.requestId)}</code></td></tr>`,
  );
  const older = v.olderQuery
    ? html`<a id="older-page" href="/audit?${v.olderQuery}">Older →</a>`
    : html`<span class="muted">No older entries.</span>`;
  return html`<table id="audit-table"><thead><tr><th>When</th><th>Who</th><th>What</th><th>Target</th><th>Before</th><th>After</th>
<th>From</th></tr></thead><tbody>${rows}</tbody></table>
<p class="pager">${v.paged ? html`<a id="newest-page" href="/audit?${v.newestQuery}">← Newest</a> · ` : ''}${older}</p>`;
}
