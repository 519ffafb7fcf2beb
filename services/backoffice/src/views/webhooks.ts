import type { DeliveryProblem, listProblemDeliveries } from '@mm/db/webhooks';
import { csrfField, orDash, when, html, raw, type SafeHtml } from '@mm/web';

export type ProblemDelivery = Awaited<ReturnType<typeof listProblemDeliveries>>[number];

export interface WebhooksView {
  problem: DeliveryProblem;
  deliveries: ProblemDelivery[];
  limit: number;
  canResend: boolean;
  csrfToken: string;
  notice?: string;
}

/** One event's Re-send button (a form of its own: forms cannot nest). `back` is where to return. */
export function resendForm(v: { eventId: string; back: string; csrfToken: string }): SafeHtml {
  return html`<form method="post" action="/webhooks/resend" class="inline" data-resend="${v.eventId}">
${csrfField(v.csrfToken)}<input type="hidden" name="back" value="${v.back}">
<input type="hidden" name="event_id" value="${v.eventId}"><button type="submit" class="secondary">Re-send</button></form>`;
}

/** What a re-send did, from the counts in the redirect's query string. */
export function resendNotice(resent: number, skipped: number): string {
  const parts = [`Re-sent ${resent} deliver${resent === 1 ? 'y' : 'ies'}.`];
  if (skipped > 0) {
    parts.push(
      `Skipped ${skipped}: no longer abandoned (already re-sent by someone else, or delivered), so nothing was changed for ${skipped === 1 ? 'it' : 'them'}.`,
    );
  }
  return parts.join(' ');
}

const EXPLAIN: Record<DeliveryProblem, string> = {
  abandoned:
    'Every scheduled attempt failed, so the dispatcher gave up. A re-send starts a new round of attempts (attempt numbers keep counting).',
  failing:
    'At least one attempt failed and the dispatcher is still retrying. These cannot be re-sent by hand: each one already has its next attempt scheduled, and a second round would race it. If the last attempt fails too, the delivery appears under Abandoned.',
};

function lastResult(d: ProblemDelivery): SafeHtml {
  const last = d.attempts[0];
  if (!last) return orDash(d.lastError);
  // Set only when there was no answer (timeout, refused connection, blocked target). Staff see the
  // detail (addresses, resolver errors); the merchant's API shows only the generic `error`.
  const why = last.errorDetail ?? last.error;
  return html`${last.statusCode === null ? 'no response' : html`HTTP <span data-status-code>${last.statusCode}</span>`}${why ? html`<br>${why}` : ''}`;
}

/** Abandoned or failing deliveries; abandoned ones can be re-sent, one (row button) or many (checkboxes). */
export function webhooksView(v: WebhooksView): SafeHtml {
  const selectable = v.problem === 'abandoned' && v.canResend;
  const back = `/webhooks?problem=${v.problem}`;
  const tab = (p: DeliveryProblem, label: string) =>
    html`<a href="/webhooks?problem=${p}" data-problem="${p}"${p === v.problem ? raw(' aria-current="page" class="badge"') : ''}>${label}</a>`;
  const rows = v.deliveries.map(
    (d) => html`<tr data-event-id="${d.id}">
${selectable ? html`<td><input type="checkbox" name="event_id" value="${d.id}" form="resend-selected" aria-label="Select"></td>` : ''}
<td>${d.merchant.name}</td><td>${d.eventType}</td>
<td>${d.transactionId ? html`<a href="/transactions/${d.transactionId}">${d.transactionId}</a>` : orDash(null)}</td>
<td>${d.attemptCount}</td><td>${lastResult(d)}</td>
<td>${v.problem === 'failing' ? when(d.nextAttemptAt) : html`<span class="muted">none (abandoned)</span>`}</td><td>${when(d.createdAt)}</td>
${selectable ? html`<td>${resendForm({ eventId: d.id, back, csrfToken: v.csrfToken })}</td>` : ''}</tr>`,
  );

  const table =
    v.deliveries.length === 0
      ? html`<p class="muted" id="no-deliveries">No ${v.problem} delivery.</p>`
      : html`<table id="deliveries"><thead><tr>${selectable ? html`<th></th>` : ''}<th>Merchant</th><th>Event</th><th>Transaction</th>
<th>Attempts</th><th>Last result</th><th>Next attempt</th><th>Created</th>${selectable ? html`<th></th>` : ''}</tr></thead>
<tbody>${rows}</tbody></table>
${v.deliveries.length >= v.limit ? html`<p class="muted">The ${v.limit} newest are shown; re-send them and reload for more.</p>` : ''}`;

  const bulk =
    selectable && v.deliveries.length > 0
      ? html`<form method="post" action="/webhooks/resend" id="resend-selected" class="pager">
${csrfField(v.csrfToken)}<input type="hidden" name="back" value="${back}">
<button type="submit">Re-send selected</button></form>`
      : '';
  return html`<h1>Webhook deliveries</h1>
<p>${tab('abandoned', 'Abandoned')} · ${tab('failing', 'Failing (still retrying)')}</p>
${v.notice ? html`<p class="notice" id="resend-notice">${v.notice}</p>` : ''}
<p class="muted">${EXPLAIN[v.problem]}</p>
${table}${bulk}`;
}
