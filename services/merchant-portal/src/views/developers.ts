/** `/developers`: the merchant's API keys and its default webhook URL, each change behind a fresh code. */
import type { ApiKeySummary } from '@mm/db/merchants';
import { csrfField, html, when, type SafeHtml } from '@mm/web';
import { developersText } from '../i18n/developers.js';
import type { Locale } from '../i18n/locale.js';

export interface DevelopersData {
  keys: ApiKeySummary[];
  webhookUrl: string | null;
  now: Date;
  canManageKeys: boolean;
  canManageWebhooks: boolean;
  csrfToken: string;
  notice?: string;
  error?: string;
  /** What the user typed in the URL field, shown back after a refusal. */
  typedUrl?: string;
}

/** The overlaps the portal offers when a key is rolled (a subset of the use case's ROTATION_GRACE_S). */
export const PORTAL_GRACE_S = [86_400, 604_800] as const;

/** The step-up field every change carries. */
export function codeField(locale: Locale, id: string): SafeHtml {
  const d = developersText(locale);
  return html`<label for="${id}">${d.code}</label>
<input id="${id}" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" required>`;
}

function keyState(locale: Locale, key: ApiKeySummary, now: Date): SafeHtml {
  const d = developersText(locale);
  if (key.revokedAt === null) return html`<span class="badge ok" data-state="active">${d.active}</span>`;
  if (key.revokedAt > now)
    return html`<span class="badge" data-state="expiring">${d.expires}</span> ${when(key.revokedAt)}`;
  return html`<span class="badge off" data-state="revoked">${d.revoked}</span> ${when(key.revokedAt)}`;
}

function keyActions(locale: Locale, key: ApiKeySummary, data: DevelopersData): SafeHtml {
  const d = developersText(locale);
  if (!data.canManageKeys || (key.revokedAt !== null && key.revokedAt <= data.now)) return html``;
  const roll =
    key.revokedAt === null
      ? html`<form method="post" action="/developers/keys/${key.apiKey}/roll" class="roll">${csrfField(data.csrfToken)}
<label for="grace-${key.id}">${d.rollOverlap}</label>
<select id="grace-${key.id}" name="grace_s">${PORTAL_GRACE_S.map(
          (s) => html`<option value="${s}">${s === 86_400 ? d.hours24 : d.days7}</option>`,
        )}</select>
${codeField(locale, `roll-code-${key.id}`)}
<p><button type="submit">${d.roll}</button></p></form>`
      : html``;
  return html`${roll}<form method="post" action="/developers/keys/${key.apiKey}/revoke" class="revoke">${csrfField(data.csrfToken)}
${codeField(locale, `revoke-code-${key.id}`)}
<p><button type="submit" class="danger">${d.revoke}</button></p></form>`;
}

function keysSection(locale: Locale, data: DevelopersData): SafeHtml {
  const d = developersText(locale);
  const table =
    data.keys.length === 0
      ? html`<p class="muted">${d.noKeys}</p>`
      : html`<div class="scroll"><table id="keys" class="cards">
<thead><tr><th>${d.key}</th><th>${d.created}</th><th>${d.lastUsed}</th><th>${d.state}</th>${data.canManageKeys ? html`<th>${d.actions}</th>` : ''}</tr></thead>
<tbody>${data.keys.map(
          (
            k,
          ) => html`<tr data-key="${k.apiKey}"><td data-label="${d.key}"><code>${k.apiKey}</code></td><td data-label="${d.created}">${when(k.createdAt)}</td>
<td class="muted" data-label="${d.lastUsed}">${d.lastUsedUnknown}</td><td data-label="${d.state}">${keyState(locale, k, data.now)}</td>
${data.canManageKeys ? html`<td>${keyActions(locale, k, data)}</td>` : ''}</tr>`,
        )}</tbody></table></div>`;
  const create = data.canManageKeys
    ? html`<form method="post" action="/developers/keys" id="create-key">${csrfField(data.csrfToken)}
${codeField(locale, 'create-code')}
<p><button type="submit">${d.createKey}</button></p></form>`
    : html``;
  return html`<h2>${d.keys}</h2><p class="muted">${d.keysIntro}</p>${table}${create}`;
}

function webhookSection(locale: Locale, data: DevelopersData): SafeHtml {
  const d = developersText(locale);
  const current = data.webhookUrl
    ? html`<p>${d.webhookUrl}: <code id="webhook-url">${data.webhookUrl}</code></p>`
    : html`<p class="muted" id="webhook-url-none">${d.noWebhookUrl}</p>`;
  const forms = data.canManageWebhooks
    ? html`<form method="post" action="/developers/webhook-url" id="webhook-url-form">${csrfField(data.csrfToken)}
<label for="webhook-url-field">${d.webhookUrl}</label>
<input id="webhook-url-field" name="webhook_url" type="url" maxlength="2048" value="${data.typedUrl ?? data.webhookUrl ?? ''}">
<p class="muted">${d.webhookUrlHint}</p>
${codeField(locale, 'webhook-url-code')}
<p><button type="submit">${d.save}</button></p></form>
<form method="post" action="/developers/webhook-test" id="webhook-test-form">${csrfField(data.csrfToken)}
<p class="muted">${d.sendTestHint}</p>
${codeField(locale, 'webhook-test-code')}
<p><button type="submit" class="secondary">${d.sendTest}</button></p></form>`
    : html``;
  return html`<h2>${d.webhook}</h2><p class="muted">${d.webhookIntro}</p>${current}${forms}
<p><a href="/developers/webhooks" id="event-log-link">${d.eventLog}</a></p>`;
}

export function developersView(locale: Locale, data: DevelopersData): SafeHtml {
  const d = developersText(locale);
  return html`<h1>${d.title}</h1>
${data.notice ? html`<p class="notice" id="developers-notice" role="status">${data.notice}</p>` : ''}
${data.error ? html`<p class="error" id="developers-error" role="alert">${data.error}</p>` : ''}
<p class="muted">${d.codeHint}</p>
${keysSection(locale, data)}
${webhookSection(locale, data)}`;
}
