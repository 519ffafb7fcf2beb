import type { SubsidiarySummary } from '@mm/db/merchants';
import { csrfField, html, type SafeHtml } from '@mm/web';

export interface SubsidiaryListView {
  subsidiaries: SubsidiarySummary[];
  /** subsidiaries:manage: the activate/deactivate buttons. */
  canManage: boolean;
  csrfToken: string;
  notice?: string;
}

/** The country subsidiaries (decisions 1). Rows: tr[data-country]. */
export function subsidiaryListView(v: SubsidiaryListView): SafeHtml {
  const rows = v.subsidiaries.map((s) => {
    const action = s.active ? 'deactivate' : 'activate';
    const button = v.canManage
      ? html`<form method="post" action="/subsidiaries/${s.countryCode}/${action}" class="inline">
${csrfField(v.csrfToken)}
<button type="submit" class="${s.active ? 'danger' : 'secondary'}">${s.active ? 'Deactivate' : 'Activate'}</button></form>`
      : '';
    return html`<tr data-country="${s.countryCode}">
<td><code>${s.countryCode}</code></td><td>${s.countryName}</td><td>${s.currency}</td>
<td>${s.active ? html`<span class="badge">active</span>` : html`<span class="badge off">inactive</span>`}</td><td>${button}</td></tr>`;
  });
  return html`<h1>Subsidiaries</h1>
${v.notice ? html`<p class="notice" id="subsidiaries-notice">${v.notice}</p>` : ''}
<p class="muted">Payments are accepted only in the countries of active subsidiaries (others answer 422 COUNTRY_NOT_SUPPORTED).</p>
<table id="subsidiaries-table"><thead><tr><th>Country</th><th>Name</th><th>Currency</th><th>Status</th><th></th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="5" class="muted">No subsidiary.</td></tr>`}</tbody></table>`;
}
