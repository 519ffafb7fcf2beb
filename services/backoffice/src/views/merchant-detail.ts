import type { ApiKeySummary, MerchantSummary } from '@mm/db/merchants';
import { html, type SafeHtml, csrfField, when } from '@mm/web';
import { statusBadge } from './merchants.js';

/** The grace periods of a rotation, as the form offers them (values in seconds). */
export interface GraceOption {
  seconds: number;
  label: string;
}

export interface MerchantDetailView {
  merchant: MerchantSummary;
  keys: ApiKeySummary[];
  now: Date;
  /** merchants:manage: disable/enable and the webhook URL form. */
  canManage: boolean;
  /** keys:manage: create, rotate, revoke. */
  canManageKeys: boolean;
  graceOptions: readonly GraceOption[];
  defaultGraceS: number;
  csrfToken: string;
  notice?: string;
  /** The webhook URL form as sent, when it was refused. */
  webhookForm?: { value: string; error: string };
  /** The owner invitation's form after a refusal: what was typed and why. */
  ownerForm?: { value: string; error: string } | undefined;
}

function keyStatus(key: ApiKeySummary, now: Date): SafeHtml {
  if (key.revokedAt === null) return html`<span class="badge">active</span>`;
  // A rotated key keeps working until revoked_at (decisions 1).
  if (key.revokedAt > now) return html`<span class="badge">expires at ${when(key.revokedAt)}</span>`;
  return html`<span class="badge off">revoked</span>`;
}

function keyActions(v: MerchantDetailView, key: ApiKeySummary): SafeHtml | '' {
  if (!v.canManageKeys || (key.revokedAt !== null && key.revokedAt <= v.now)) return '';
  const base = `/merchants/${v.merchant.id}/keys/${key.apiKey}`;
  const rotate =
    key.revokedAt === null
      ? html`<form method="post" action="${base}/rotate" class="inline">${csrfField(v.csrfToken)}
<label class="inline">Old key works for <select name="grace_s">${v.graceOptions.map(
          (o) =>
            html`<option value="${o.seconds}"${o.seconds === v.defaultGraceS ? html` selected` : ''}>${o.label}</option>`,
        )}</select></label>
<button type="submit" class="secondary">Rotate</button></form> `
      : '';
  return html`${rotate}<form method="post" action="${base}/revoke" class="inline">${csrfField(v.csrfToken)}
<button type="submit" class="danger">Revoke now</button></form>`;
}

function manageSection(v: MerchantDetailView): SafeHtml {
  const m = v.merchant;
  const disabled = m.status !== 'ACTIVE';
  const webhookValue = v.webhookForm?.value ?? m.webhookUrl ?? '';
  return html`<section class="card" id="merchant-manage">
<form method="post" action="/merchants/${m.id}/${disabled ? 'enable' : 'disable'}">${csrfField(v.csrfToken)}
<p class="muted">${disabled ? 'Its API calls are refused (403 MERCHANT_DISABLED).' : 'Disabling refuses all its API calls at once (403 MERCHANT_DISABLED); its keys are kept.'}</p>
<button type="submit" class="${disabled ? 'secondary' : 'danger'}">${disabled ? 'Enable the merchant' : 'Disable the merchant'}</button></form>
<form method="post" action="/merchants/${m.id}/webhook-url">${csrfField(v.csrfToken)}
<label for="webhook-url">Default webhook URL (empty: none)</label>
<input id="webhook-url" name="webhook_url" type="url" maxlength="2048" value="${webhookValue}">
${v.webhookForm ? html`<p class="error" id="webhook-url-error" role="alert">${v.webhookForm.error}</p>` : ''}
<p><button type="submit">Save the webhook URL</button></p></form>
<form method="post" action="/merchants/${m.id}/invite-owner" id="invite-owner">${csrfField(v.csrfToken)}
<label for="owner-email">Invite an owner to the merchant dashboard (email)</label>
<input id="owner-email" name="email" type="email" maxlength="254" required value="${v.ownerForm?.value ?? ''}">
<label for="owner-locale">Language of the mail</label>
<select id="owner-locale" name="locale"><option value="fr">French</option><option value="en">English</option></select>
${v.ownerForm ? html`<p class="error" id="invite-owner-error" role="alert">${v.ownerForm.error}</p>` : ''}
<p><button type="submit">Send the invitation</button></p></form></section>`;
}

/** One merchant and its keys (never a secret: the page gets no secret to show). Key rows: tr[data-api-key]. */
export function merchantDetailView(v: MerchantDetailView): SafeHtml {
  const m = v.merchant;
  const rows = v.keys.map(
    (k) => html`<tr data-api-key="${k.apiKey}">
<td><code>${k.apiKey}</code></td><td>${when(k.createdAt)}</td><td>${keyStatus(k, v.now)}</td>
<td>${k.revokedAt ? when(k.revokedAt) : ''}</td><td>${keyActions(v, k)}</td></tr>`,
  );
  return html`<p><a href="/merchants">All merchants</a></p>
<h1 id="merchant-name">${m.name}</h1>
${v.notice ? html`<p class="notice" id="merchant-notice">${v.notice}</p>` : ''}
<table id="merchant-facts"><tbody>
<tr><th>Id</th><td><code>${m.id}</code></td></tr>
<tr><th>Status</th><td id="merchant-status">${statusBadge(m.status)}</td></tr>
<tr><th>Default webhook URL</th><td id="merchant-webhook-url">${m.webhookUrl ?? html`<span class="muted">none</span>`}</td></tr>
<tr><th>Created</th><td>${when(m.createdAt)}</td></tr>
</tbody></table>
${v.canManage ? manageSection(v) : ''}
<h2>API keys</h2>
${
  v.canManageKeys
    ? html`<form method="post" action="/merchants/${m.id}/keys">${csrfField(v.csrfToken)}
<p><button type="submit">Create a new key</button> <span class="muted">Its secret is shown once, on the next page.</span></p></form>`
    : ''
}
<table id="keys-table"><thead><tr><th>api_key</th><th>Created</th><th>Status</th><th>Revoked / expires at</th><th></th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="5" class="muted">No key.</td></tr>`}</tbody></table>`;
}
