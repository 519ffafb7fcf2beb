import type { TimelineItem } from '@mm/db/payments';
import { amount, statusBadge, when, html, type SafeHtml } from '@mm/web';

// What the operator said, or who decided, under the names staff know them by.
const DETAIL_LABELS: Record<string, string> = {
  provider_state: 'Operator state',
  provider_txn_status: 'Operator txn_status',
  provider_tx_id: 'Operator transaction id',
  failure_code: 'Failure code',
  failure_reason: 'Failure reason',
  decided_by: 'Decided by',
  approval_reason: 'Waits for approval because',
};

function detailList(detail: Record<string, unknown> | null): SafeHtml | string {
  if (!detail || Object.keys(detail).length === 0) return '';
  return html`<ul class="detail">${Object.entries(detail).map(
    ([key, value]) =>
      html`<li data-detail="${key}"><span class="muted">${DETAIL_LABELS[key] ?? key}:</span> ${
        value === null
          ? html`<span class="muted">none</span>`
          : typeof value === 'string'
            ? value
            : JSON.stringify(value)
      }</li>`,
  )}</ul>`;
}

function row(item: TimelineItem, currency: string): SafeHtml {
  switch (item.kind) {
    case 'state':
      return html`<tr data-kind="state" data-to="${item.to}"><td>${when(item.at)}</td><td>State</td>
<td>${item.from ? html`${statusBadge(item.from)} → ` : ''}${statusBadge(item.to)}</td>
<td><code>${item.cause}</code>${detailList(item.detail)}</td></tr>`;
    case 'late-success':
      return html`<tr data-kind="late-success" data-refund-id="${item.refundId}"><td>${when(item.at)}</td><td>Late success</td>
<td>${amount(item.amount, currency)} <span class="badge">in suspense</span></td>
<td>The operator confirmed the payment after it was FAILED here${item.providerTxId ? html` (operator transaction id <code>${item.providerTxId}</code>)` : ''}.
The money is the customer's: held in suspense and returned through the operator automatically. The merchant is not notified.</td></tr>`;
    case 'refund':
      return html`<tr data-kind="refund" data-refund-id="${item.refundId}" data-origin="${item.origin}"><td>${when(item.at)}</td><td>${item.origin === 'LATE_SUCCESS' ? 'Return to the customer' : 'Refund'}</td>
<td>${amount(item.amount, currency)} ${statusBadge(item.status)}</td>
<td><code>${item.refundId}</code>${item.failureReason ? html`<br>Failure reason: ${item.failureReason}` : ''}${item.completedAt ? html`<br>Completed ${when(item.completedAt)}` : ''}</td></tr>`;
    case 'webhook':
      return html`<tr data-kind="webhook" data-event-id="${item.eventId}" data-attempt="${item.attemptNo}"><td>${when(item.at)}</td><td>Webhook attempt ${item.attemptNo}</td>
<td>${item.success ? html`<span class="badge ok">delivered</span>` : html`<span class="badge off">failed</span>`}
${item.statusCode === null ? 'no response' : html`HTTP <span data-status-code>${item.statusCode}</span>`}, ${item.latencyMs} ms</td>
<td>${item.eventType} to <code>${item.targetUrl}</code>${(item.errorDetail ?? item.error) ? html`<br>Error: ${item.errorDetail ?? item.error}` : ''}
<br><span class="muted">event ${item.eventId} (now ${item.eventStatus})</span></td></tr>`;
  }
}

/** Everything that happened, oldest first: state changes with operator detail, refunds, late successes, webhook attempts. */
export function timelineView(items: TimelineItem[], currency: string): SafeHtml {
  if (items.length === 0) return html`<p class="muted">Nothing recorded yet.</p>`;
  return html`<table id="timeline"><thead><tr><th>When</th><th>What</th><th>Change / result</th><th>Detail</th></tr></thead>
<tbody>${items.map((i) => row(i, currency))}</tbody></table>`;
}
