import type { StaffAccount } from '@mm/db/staff';
import { csrfField, html, type SafeHtml } from '@mm/web';

export interface StaffListView {
  members: StaffAccount[];
  me: StaffAccount;
  csrfToken: string;
  notice?: string;
}

/** Staff accounts with a disable/enable button each (never for oneself). Rows: tr[data-staff-email]. */
export function staffListView(v: StaffListView): SafeHtml {
  const rows = v.members.map((m) => {
    const action = m.disabledAt ? 'enable' : 'disable';
    const button =
      m.id === v.me.id
        ? html`<span class="muted">you</span>`
        : html`<form method="post" action="/staff/${m.id}/${action}" class="inline">
${csrfField(v.csrfToken)}
<button type="submit" class="${m.disabledAt ? 'secondary' : 'danger'}">${m.disabledAt ? 'Enable' : 'Disable'}</button></form>`;
    return html`<tr data-staff-email="${m.email}">
<td>${m.email}</td><td>${m.name}</td><td><span class="badge">${m.role}</span></td>
<td>${m.disabledAt ? html`<span class="badge off">disabled</span>` : 'active'}</td>
<td>${m.createdAt.toISOString().slice(0, 10)}</td><td>${button}</td></tr>`;
  });
  return html`<h1>Staff</h1>
${v.notice ? html`<p class="notice" id="staff-notice">${v.notice}</p>` : ''}
<p class="muted">New accounts are created with <code>pnpm admin staff:create</code>.</p>
<table id="staff-table"><thead><tr><th>Email</th><th>Name</th><th>Role</th><th>Status</th><th>Created</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>`;
}
