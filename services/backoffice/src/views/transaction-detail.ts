import type { transactionTimeline } from '@mm/db/payments';
import { amount, jsonBlock, orDash, statusBadge, when, html, type SafeHtml } from '@mm/web';
import { timelineView } from './timeline.js';
import { resendForm } from './webhooks.js';

export type TransactionHistory = NonNullable<Awaited<ReturnType<typeof transactionTimeline>>>;

export interface TransactionDetailView {
  history: TransactionHistory;
  /** webhooks:resend: the Re-send button on abandoned deliveries. */
  canResend: boolean;
  csrfToken: string;
  notice?: string;
}

function field(label: string, value: SafeHtml | string, key: string): SafeHtml {
  return html`<dt>${label}</dt><dd data-field="${key}">${value}</dd>`;
}

/** Every column of the transaction (staff see the full number), its timeline, and its webhook events. */
export function transactionDetailView(v: TransactionDetailView): SafeHtml {
  const t = v.history.transaction;
  const fields = [
    field('Id', html`<code>${t.id}</code>`, 'id'),
    field('Merchant', html`${t.merchant.name} <span class="muted">(${t.merchantId})</span>`, 'merchant'),
    field('Merchant order id', t.merchantOrderId, 'merchant_order_id'),
    field('Type', t.type, 'type'),
    field('Status', statusBadge(t.status), 'status'),
    field('Amount', amount(t.amount, t.currency), 'amount'),
    field('Refunded', amount(t.refundedAmount, t.currency), 'refunded_amount'),
    field('Refunds reserved or paid', amount(t.refundReservedAmount, t.currency), 'refund_reserved_amount'),
    field('Country', t.countryCode, 'country'),
    field('Number', t.msisdn, 'msisdn'),
    field('Motif', orDash(t.motif), 'motif'),
    field('Return URL', orDash(t.returnUrl), 'return_url'),
    field('Notify URL', orDash(t.notifyUrl), 'notify_url'),
    field('Metadata', jsonBlock(t.metadata), 'metadata'),
    field('Provider reference', html`<code>${t.providerReference}</code>`, 'provider_reference'),
    field('Operator transaction id', orDash(t.providerTxId), 'provider_tx_id'),
    field('Operator session id', orDash(t.providerSessionId), 'provider_session_id'),
    field('Operator state', orDash(t.providerState), 'provider_state'),
    field('Operator txn_status', orDash(t.providerTxnStatus), 'provider_txn_status'),
    field('Failure code', orDash(t.failureCode), 'failure_code'),
    field('Failure reason', orDash(t.failureReason), 'failure_reason'),
    field('Expires', when(t.expiresAt), 'expires_at'),
    field('Completed', when(t.completedAt), 'completed_at'),
    field('Created', when(t.createdAt), 'created_at'),
    field('Updated', when(t.updatedAt), 'updated_at'),
    field('Request fingerprint', html`<code>${t.requestFingerprint}</code>`, 'request_fingerprint'),
    ...lateSuccessField(v.history.items, t.currency),
  ];
  return html`<p><a href="/transactions">← Transactions</a></p>
<h1>Transaction <code>${t.id}</code></h1>
${v.notice ? html`<p class="notice" id="resend-notice">${v.notice}</p>` : ''}
<dl class="fields" id="transaction-fields">${fields}</dl>
<h2>Timeline</h2>
${timelineView(v.history.items, t.currency)}
<h2>Webhook events</h2>
${eventsTable(v)}`;
}

/**
 * A late success for this FAILED cash-in (decisions 13): where its money is. Only a FAILED return asks
 * a person for something: the money stays in suspense until it is paid back another way.
 */
function lateSuccessField(items: TransactionHistory['items'], currency: string): SafeHtml[] {
  const ret = items.find((i) => i.kind === 'refund' && i.origin === 'LATE_SUCCESS');
  if (!ret || ret.kind !== 'refund') return [];
  const state =
    ret.status === 'SUCCESS'
      ? html`<span class="badge ok" data-late-success="RETURNED">returned to the customer</span>`
      : ret.status === 'FAILED'
        ? html`<span class="badge off" data-late-success="RETURN_FAILED">return FAILED: held in suspense, pay the customer back by hand</span>`
        : html`<span class="badge" data-late-success="RETURNING">returning to the customer</span>`;
  return [
    field(
      'Late success',
      html`${state} ${amount(ret.amount, currency)} <span class="muted">(return <code>${ret.refundId}</code>; the merchant still sees FAILED)</span>`,
      'late_success',
    ),
  ];
}

function eventsTable(v: TransactionDetailView): SafeHtml {
  const events = v.history.webhookEvents;
  if (events.length === 0)
    return html`<p class="muted" id="no-webhook-events">No webhook event for this transaction.</p>`;
  const back = `/transactions/${v.history.transaction.id}`;
  const rows = events.map(
    (e) => html`<tr data-event-id="${e.id}">
<td><code>${e.id}</code></td><td>${e.eventType}</td><td>${statusBadge(e.status)}</td><td>${e.attemptCount}</td>
<td>${when(e.nextAttemptAt)}</td><td>${orDash(e.lastError)}</td><td>${when(e.deliveredAt)}</td><td>${orDash(e.targetUrl)}</td>
<td>${e.status === 'ABANDONED' && v.canResend ? resendForm({ eventId: e.id, back, csrfToken: v.csrfToken }) : ''}</td></tr>`,
  );
  return html`<table id="webhook-events"><thead><tr><th>Event</th><th>Type</th><th>Status</th><th>Attempts</th><th>Next attempt</th>
<th>Last error</th><th>Delivered</th><th>Target</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}
