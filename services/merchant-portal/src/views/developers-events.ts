/** `/developers/webhooks`: the merchant's webhook events and, on each event's page, every delivery attempt. */
import type { MerchantWebhookEventRow } from '@mm/db/webhooks';
import type { Prisma } from '@mm/db';
import { csrfField, html, jsonBlock, orDash, statusBadge, when, type SafeHtml } from '@mm/web';
import { developersText, fill } from '../i18n/developers.js';
import type { Locale } from '../i18n/locale.js';
import { codeField } from './developers.js';

export const EVENT_STATUSES = ['PENDING', 'DELIVERED', 'ABANDONED', 'NO_TARGET'] as const;
export const EVENT_TYPES = ['transaction.status_changed', 'refund.status_changed'] as const;

export interface EventFilters {
  status: string;
  event: string;
  from: string;
  to: string;
}

export interface EventLogData {
  filters: EventFilters;
  events: MerchantWebhookEventRow[];
  /** The next page's URL, filters kept; null on the last page. */
  nextHref: string | null;
  canResend: boolean;
  resendLimit: number;
  csrfToken: string;
  notice?: string;
  error?: string;
}

function select(name: string, label: string, any: string, values: readonly string[], chosen: string): SafeHtml {
  return html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">
<option value="">${any}</option>${values.map(
    (v) => html`<option value="${v}"${v === chosen ? html` selected` : ''}>${v}</option>`,
  )}</select></div>`;
}

function lastAttempt(e: MerchantWebhookEventRow): SafeHtml {
  const a = e.attempts[0];
  if (!a) return html`<span class="muted">—</span>`;
  return html`${orDash(a.statusCode)}${a.error ? html` · ${a.error}` : ''} · ${when(a.createdAt)}`;
}

export function eventLogView(locale: Locale, data: EventLogData): SafeHtml {
  const d = developersText(locale);
  const f = data.filters;
  const rows =
    data.events.length === 0
      ? html`<p class="muted" id="no-events">${d.noEvents}</p>`
      : html`<div class="scroll"><table id="events">
<thead><tr><th>${d.created}</th><th>${d.eventType}</th><th>${d.status}</th><th>${d.transaction}</th><th>${d.attempts}</th><th>${d.lastAttempt}</th></tr></thead>
<tbody>${data.events.map(
          (e) => html`<tr data-event="${e.id}"><td><a href="/developers/webhooks/${e.id}">${when(e.createdAt)}</a></td>
<td><code>${e.eventType}</code></td><td>${statusBadge(e.status)}</td><td>${e.transactionId ? html`<code>${e.transactionId}</code>` : orDash(null)}</td>
<td>${e.attemptCount}</td><td>${lastAttempt(e)}</td></tr>`,
        )}</tbody></table></div>`;
  const resendWindow = data.canResend
    ? html`<h2>${d.resendWindow}</h2><p class="muted">${fill(d.resendWindowHint, { n: data.resendLimit })}</p>
<form method="post" action="/developers/webhooks/resend-failed" id="resend-window-form">${csrfField(data.csrfToken)}
<label for="w-from">${d.from}</label><input id="w-from" name="from" type="datetime-local" required>
<label for="w-to">${d.to}</label><input id="w-to" name="to" type="datetime-local" required>
${codeField(locale, 'resend-window-code')}
<p><button type="submit">${d.resend}</button></p></form>`
    : html``;
  return html`<h1>${d.events}</h1>
${data.notice ? html`<p class="notice" id="developers-notice" role="status">${data.notice}</p>` : ''}
${data.error ? html`<p class="error" id="developers-error" role="alert">${data.error}</p>` : ''}
<form method="get" action="/developers/webhooks" class="filters" id="event-filters">
${select('status', d.status, d.any, EVENT_STATUSES, f.status)}
${select('event', d.eventType, d.any, EVENT_TYPES, f.event)}
<div><label for="f-from">${d.from}</label><input id="f-from" name="from" type="date" value="${f.from}"></div>
<div><label for="f-to">${d.to}</label><input id="f-to" name="to" type="date" value="${f.to}"></div>
<div><button type="submit">${d.filter}</button></div></form>
${rows}
${data.nextHref ? html`<p class="pager"><a href="${data.nextHref}" id="next-page" rel="next">${d.nextPage}</a></p>` : ''}
${resendWindow}
<p><a href="/developers">${d.backToDevelopers}</a></p>`;
}

export interface EventDetailData {
  event: Prisma.WebhookEventGetPayload<{ include: { attempts: true } }>;
  canResend: boolean;
  csrfToken: string;
  notice?: string;
  error?: string;
}

export function eventDetailView(locale: Locale, data: EventDetailData): SafeHtml {
  const d = developersText(locale);
  const e = data.event;
  const attempts =
    e.attempts.length === 0
      ? html`<p class="muted">${d.noAttempts}</p>`
      : html`<div class="scroll"><table id="attempts">
<thead><tr><th>${d.attemptNo}</th><th>${d.at}</th><th>${d.statusCode}</th><th>${d.latency}</th><th>${d.error}</th><th>${d.success}</th></tr></thead>
<tbody>${e.attempts.map(
          (
            a,
          ) => html`<tr data-attempt="${a.attemptNo}"><td>${a.attemptNo}</td><td>${when(a.createdAt)}</td><td>${orDash(a.statusCode)}</td>
<td>${a.latencyMs}</td><td>${orDash(a.error)}</td><td>${a.success ? '✓' : '✗'}</td></tr>`,
        )}</tbody></table></div>`;
  const resend =
    data.canResend && e.status === 'ABANDONED'
      ? html`<form method="post" action="/developers/webhooks/${e.id}/resend" id="resend-form">${csrfField(data.csrfToken)}
${codeField(locale, 'resend-code')}
<p><button type="submit">${d.resend}</button></p></form>`
      : html`<p class="muted">${d.resendHint}</p>`;
  return html`<h1>${d.event}</h1>
${data.notice ? html`<p class="notice" id="developers-notice" role="status">${data.notice}</p>` : ''}
${data.error ? html`<p class="error" id="developers-error" role="alert">${data.error}</p>` : ''}
<dl class="fields" id="event">
<dt>event_id</dt><dd><code>${e.id}</code></dd>
<dt>${d.eventType}</dt><dd><code>${e.eventType}</code></dd>
<dt>${d.status}</dt><dd>${statusBadge(e.status)}</dd>
<dt>${d.transaction}</dt><dd>${e.transactionId ? html`<code>${e.transactionId}</code>` : orDash(null)}</dd>
<dt>${d.target}</dt><dd>${e.targetUrl ? html`<code>${e.targetUrl}</code>` : orDash(null)}</dd>
<dt>${d.created}</dt><dd>${when(e.createdAt)}</dd>
<dt>${d.nextAttempt}</dt><dd>${when(e.nextAttemptAt)}</dd>
<dt>${d.delivered}</dt><dd>${when(e.deliveredAt)}</dd>
</dl>
<h2>${d.attempts}</h2>${attempts}
${resend}
<h2>${d.payload}</h2>${jsonBlock(e.payload)}
<p><a href="/developers/webhooks">${d.eventLog}</a></p>`;
}
