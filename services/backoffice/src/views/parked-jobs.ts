import { QUEUE_NAMES } from '@mm/queues';
import type { ParkedJobRow, PayloadId } from '../routes/parked-job-targets.js';
import { csrfField, orDash, when, html, type SafeHtml } from '@mm/web';

export interface ParkedJobsView {
  jobs: ParkedJobRow[];
  /** Parked jobs per queue, all of them (the list shows the newest `limit`). */
  counts: Record<string, number>;
  limit: number;
  canRerun: boolean;
  /** Links to the Bull dashboard, which only admins may open. */
  canOpenDashboard: boolean;
  csrfToken: string;
  notice?: string;
}

const QUEUES = new Set<string>(Object.values(QUEUE_NAMES));

/** What running jobs again did, from the counts in the redirect's query string. */
export function runAgainNotice(ran: number, skipped: number): string {
  const parts = [
    `Running ${ran} job${ran === 1 ? '' : 's'} again: the worker of ${ran === 1 ? 'its queue' : 'each queue'} picks ${ran === 1 ? 'it' : 'them'} up within seconds.`,
  ];
  if (skipped > 0) {
    parts.push(
      `Skipped ${skipped}: no longer parked (already run again by someone else, or done), so nothing was changed for ${skipped === 1 ? 'it' : 'them'}.`,
    );
  }
  return parts.join(' ');
}

function payloadId(p: PayloadId): SafeHtml {
  const id = p.transactionId
    ? html`<a href="/transactions/${p.transactionId}">${p.id}</a>`
    : html`<code>${p.id}</code>`;
  return html`<span data-id-key="${p.key}">${p.key}: ${id}</span>`;
}

/** The dashboard's list of the queue's failed jobs, where the parked job's last run is, with its stack trace. */
function queueCell(topic: string, canOpenDashboard: boolean): SafeHtml {
  if (!canOpenDashboard || !QUEUES.has(topic)) return html`${topic}`;
  return html`${topic}<br><a href="/queues/queue/${topic}?status=failed" data-dashboard="${topic}">failed jobs in the Bull dashboard</a>`;
}

function runAgainForm(outboxId: string, csrfToken: string): SafeHtml {
  return html`<form method="post" action="/jobs/parked/run-again" class="inline" data-run-again="${outboxId}">
${csrfField(csrfToken)}<input type="hidden" name="outbox_id" value="${outboxId}"><button type="submit" class="secondary">Run again</button></form>`;
}

function summary(counts: Record<string, number>): SafeHtml {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) return html`<p class="muted" id="no-parked-jobs">No parked job.</p>`;
  const byQueue = Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([topic, n]) => html`<span data-parked-count="${topic}">${topic}: ${n}</span>`);
  return html`<p id="parked-summary"><strong>${total}</strong> parked job${total === 1 ? '' : 's'} (${byQueue.map((s, i) => html`${i > 0 ? ', ' : ''}${s}`)}).</p>`;
}

/** Parked jobs, newest first; admins run them again, one (row button) or many (checkboxes). */
export function parkedJobsView(v: ParkedJobsView): SafeHtml {
  const rows = v.jobs.map(
    (j) => html`<tr data-outbox-id="${j.id}">
${v.canRerun ? html`<td><input type="checkbox" name="outbox_id" value="${j.id}" form="run-again-selected" aria-label="Select"></td>` : ''}
<td>${queueCell(j.topic, v.canOpenDashboard)}</td>
<td>${j.ids.length > 0 ? j.ids.map((p, i) => html`${i > 0 ? html`<br>` : ''}${payloadId(p)}`) : orDash(null)}<br><span class="muted">outbox_id: <code>${j.id}</code></span></td>
<td>${j.failedRuns}</td><td data-last-error>${orDash(j.lastError)}</td><td>${when(j.parkedAt)}</td><td>${when(j.createdAt)}</td>
${v.canRerun ? html`<td>${runAgainForm(j.id, v.csrfToken)}</td>` : ''}</tr>`,
  );

  const table =
    v.jobs.length === 0
      ? ''
      : html`<table id="parked-jobs"><thead><tr>${v.canRerun ? html`<th></th>` : ''}<th>Queue</th><th>Ids</th><th>Failed runs</th>
<th>Last error</th><th>Parked</th><th>Created</th>${v.canRerun ? html`<th></th>` : ''}</tr></thead>
<tbody>${rows}</tbody></table>
${v.jobs.length >= v.limit ? html`<p class="muted">The ${v.limit} most recently parked are shown; run them again and reload for more.</p>` : ''}`;

  const bulk =
    v.canRerun && v.jobs.length > 0
      ? html`<form method="post" action="/jobs/parked/run-again" id="run-again-selected" class="pager">
${csrfField(v.csrfToken)}<button type="submit">Run selected again</button></form>`
      : '';
  return html`<h1>Parked jobs</h1>
${v.notice ? html`<p class="notice" id="run-again-notice">${v.notice}</p>` : ''}
<p class="muted">A job is parked when every attempt of several runs in a row (OUTBOX_MAX_FAILED_RUNS, 5 by default) failed
for a reason no code handles. Its worker stops running it, so it cannot fail for ever unseen; its last failed run stays in the
Bull dashboard with the stack trace. Run it again once the cause is understood or fixed: it starts a new run with a fresh count.</p>
${summary(v.counts)}
${table}${bulk}`;
}
