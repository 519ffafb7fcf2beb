import type { StaffAccount } from '@mm/db/staff';
import { permissionsOf } from '@mm/domain';
import { html, type SafeHtml } from '@mm/web';
import { navFor } from './nav.js';

export function homeView(staff: StaffAccount): SafeHtml {
  const areas = navFor(staff.role).filter((item) => item.href !== '/');
  return html`<h1 id="home-title">Welcome, ${staff.name}</h1>
<p>You are logged in as <strong>${staff.email}</strong> with the role <span class="badge">${staff.role}</span>.</p>
${areas.length > 0 ? html`<ul id="home-areas">${areas.map((a) => html`<li><a href="${a.href}">${a.label}</a></li>`)}</ul>` : ''}
<details><summary class="muted">What this role may do</summary>
<ul id="home-permissions">${permissionsOf(staff.role).map((p) => html`<li><code>${p}</code></li>`)}</ul></details>`;
}
