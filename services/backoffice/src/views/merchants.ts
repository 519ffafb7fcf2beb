import type { MerchantSummary } from '@mm/db/merchants';
import { csrfField, html, type SafeHtml } from '@mm/web';

export interface MerchantFormState {
  name: string;
  webhookUrl: string;
  errors: { name?: string; webhookUrl?: string };
}

export interface MerchantListView {
  merchants: MerchantSummary[];
  /** merchants:manage: shows the creation form. */
  canManage: boolean;
  csrfToken: string;
  notice?: string;
  /** The creation form as sent, when it was refused. */
  form?: MerchantFormState;
}

export function statusBadge(status: string): SafeHtml {
  return status === 'ACTIVE' ? html`<span class="badge">active</span>` : html`<span class="badge off">disabled</span>`;
}

function fieldError(id: string, message: string | undefined): SafeHtml | '' {
  return message ? html`<p class="error" id="${id}" role="alert">${message}</p>` : '';
}

function createForm(v: MerchantListView): SafeHtml {
  const f = v.form ?? { name: '', webhookUrl: '', errors: {} };
  return html`<section class="card" id="merchant-create">
<h2>New merchant</h2>
<form method="post" action="/merchants">
${csrfField(v.csrfToken)}
<label for="merchant-name">Name</label>
<input id="merchant-name" name="name" required maxlength="200" value="${f.name}">
${fieldError('merchant-name-error', f.errors.name)}
<label for="merchant-webhook-url">Default webhook URL (optional, http or https)</label>
<input id="merchant-webhook-url" name="webhook_url" type="url" maxlength="2048" placeholder="https://shop.example/webhooks" value="${f.webhookUrl}">
${fieldError('merchant-webhook-url-error', f.errors.webhookUrl)}
<p class="muted">The first API key is created with the merchant; its secret is shown once, on the next page.</p>
<button type="submit">Create the merchant</button>
</form></section>`;
}

/** Every merchant, newest first. Rows: tr[data-merchant-id]. */
export function merchantListView(v: MerchantListView): SafeHtml {
  const rows = v.merchants.map(
    (m) => html`<tr data-merchant-id="${m.id}">
<td><a href="/merchants/${m.id}">${m.name}</a></td><td>${statusBadge(m.status)}</td>
<td>${m.webhookUrl ?? html`<span class="muted">none</span>`}</td><td>${m.createdAt.toISOString().slice(0, 10)}</td></tr>`,
  );
  return html`<h1>Merchants</h1>
${v.notice ? html`<p class="notice" id="merchants-notice">${v.notice}</p>` : ''}
${v.canManage ? createForm(v) : ''}
<table id="merchants-table"><thead><tr><th>Name</th><th>Status</th><th>Default webhook URL</th><th>Created</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="4" class="muted">No merchant yet.</td></tr>`}</tbody></table>`;
}
