import type { MerchantPaymentDetail, MerchantTimelineItem, MerchantWebhookEvent } from '@mm/db/payments';
import { maskMsisdn } from '@mm/domain';
import { amount, csrfField, html, orDash, statusBadge, when, type SafeHtml } from '@mm/web';
import type { PaymentsText } from '../i18n/payments.js';
import { typeLabel } from './payments.js';

/** The refund form as it was sent (kept when it comes back with an error) and its one-time key. */
export interface RefundFormState {
  idempotencyKey: string;
  amount: string;
  reason: string;
  error?: string;
}

export interface PaymentDetailView {
  detail: MerchantPaymentDetail;
  /** refunds:create: the form is shown (the route checks again). */
  canRefund: boolean;
  csrfToken: string;
  refundForm: RefundFormState;
  notice?: string;
}

function field(label: string, value: SafeHtml | string, key: string): SafeHtml {
  return html`<dt>${label}</dt><dd data-field="${key}">${value}</dd>`;
}

/** A payment as the merchant may see it: its fields (number masked as the API masks it), history, refunds and webhooks. */
export function paymentDetailView(m: PaymentsText, v: PaymentDetailView): SafeHtml {
  const t = v.detail.transaction;
  const fields = [
    field(m.id, html`<code>${t.id}</code>`, 'id'),
    field(m.orderId, t.merchantOrderId, 'merchant_order_id'),
    field(m.type, typeLabel(m, t.type), 'type'),
    field(m.status, statusBadge(t.status), 'status'),
    field(m.amount, amount(t.amount, t.currency), 'amount'),
    field(m.refunded, amount(t.refundedAmount, t.currency), 'refunded_amount'),
    field(m.refundReserved, amount(t.refundReservedAmount, t.currency), 'refund_reserved_amount'),
    field(m.customer, maskMsisdn(t.msisdn), 'msisdn'),
    field(m.operator, t.operator, 'operator'),
    field(m.country, t.countryCode, 'country'),
    field(m.motif, orDash(t.motif), 'motif'),
    field(m.providerReference, html`<code>${t.providerReference}</code>`, 'provider_reference'),
    field(m.providerTxId, orDash(t.providerTxId), 'provider_tx_id'),
    field(m.providerState, orDash(t.providerState), 'provider_state'),
    field(m.providerTxnStatus, orDash(t.providerTxnStatus), 'provider_txn_status'),
    field(m.failureCode, orDash(t.failureCode), 'failure_code'),
    field(m.failureReason, orDash(t.failureReason), 'failure_reason'),
    field(m.created, when(t.createdAt), 'created_at'),
    field(m.completed, when(t.completedAt), 'completed_at'),
    field(m.updated, when(t.updatedAt), 'updated_at'),
  ];
  return html`<p><a href="/payments">${m.back}</a></p>
<h1>${m.payment} <code>${t.merchantOrderId}</code></h1>
${v.notice ? html`<p class="notice" id="payment-notice" role="status">${v.notice}</p>` : ''}
<dl class="fields" id="payment-fields">${fields}</dl>
${refundSection(m, v)}
<h2>${m.timeline}</h2>
${timeline(m, v.detail.timeline, t.currency)}
<h2>${m.refunds}</h2>
${refunds(m, v.detail)}
<h2>${m.webhookEvents}</h2>
${webhookEvents(m, v.detail.webhookEvents)}`;
}

/** Only for a role that may refund, and only while the payment can be refunded (the use case decides either way). */
function refundSection(m: PaymentsText, v: PaymentDetailView): SafeHtml | string {
  const t = v.detail.transaction;
  const room = t.amount - t.refundReservedAmount;
  const f = v.refundForm;
  // A refusal is shown even where the form is not (the payment is not, or no longer, refundable).
  const error = f.error ? html`<p class="error" id="refund-error" role="alert">${f.error}</p>` : '';
  if (!v.canRefund || t.type !== 'CASHIN' || t.status !== 'SUCCESS' || room <= 0n) return error;
  return html`<section class="card" id="refund">
<h2>${m.refundTitle}</h2>
<p class="muted">${m.refundHelp} ${m.refundable}: <strong data-refundable>${amount(room, t.currency)}</strong>.</p>
${error}
<form method="post" action="/payments/${t.id}/refund" id="refund-form">${csrfField(v.csrfToken)}
<input type="hidden" name="idempotency_key" value="${f.idempotencyKey}">
<label for="refund-amount">${m.refundAmount}</label>
<input id="refund-amount" name="amount" inputmode="numeric" value="${f.amount}" placeholder="${room.toString()}">
<label for="refund-reason">${m.refundReason}</label>
<input id="refund-reason" name="reason" maxlength="255" value="${f.reason}">
<label for="refund-code">${m.stepUpCode}</label>
<input id="refund-code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="32">
<p><button type="submit">${m.refundSubmit}</button></p>
</form></section>`;
}

const DETAIL_LABELS = (m: PaymentsText): Record<string, string> => ({
  provider_state: m.providerState,
  provider_txn_status: m.providerTxnStatus,
  provider_tx_id: m.providerTxId,
  failure_code: m.failureCode,
  failure_reason: m.failureReason,
});

function row(m: PaymentsText, item: MerchantTimelineItem, currency: string): SafeHtml {
  switch (item.kind) {
    case 'state': {
      const labels = DETAIL_LABELS(m);
      const detail = Object.entries(item.detail);
      return html`<tr data-kind="state" data-to="${item.to}"><td>${when(item.at)}</td><td>${m.stateChange}</td>
<td>${item.from ? html`${statusBadge(item.from)} → ` : ''}${statusBadge(item.to)}</td>
<td><code>${item.cause}</code>${
        detail.length > 0
          ? html`<ul class="detail">${detail.map(
              ([k, value]) =>
                html`<li data-detail="${k}"><span class="muted">${labels[k] ?? k}:</span> ${orDash(value)}</li>`,
            )}</ul>`
          : ''
      }</td></tr>`;
    }
    case 'refund':
      return html`<tr data-kind="refund" data-refund-id="${item.refundId}"><td>${when(item.at)}</td><td>${m.refund}</td>
<td>${amount(item.amount, currency)} ${statusBadge(item.status)}</td><td><code>${item.refundId}</code></td></tr>`;
    case 'webhook':
      return html`<tr data-kind="webhook" data-event-id="${item.eventId}" data-attempt="${item.attemptNo}"><td>${when(item.at)}</td>
<td>${m.webhookAttempt} ${item.attemptNo}</td><td>${attemptResult(m, item)}</td><td>${item.eventType}</td></tr>`;
  }
}

function attemptResult(
  m: PaymentsText,
  a: { success: boolean; statusCode: number | null; latencyMs: number; error: string | null },
): SafeHtml {
  return html`${a.success ? html`<span class="badge ok">${m.delivered}</span>` : html`<span class="badge off">${m.failed}</span>`}
${a.statusCode === null ? m.noResponse : html`HTTP <span data-status-code>${a.statusCode}</span>`}, ${a.latencyMs} ms${
    a.error ? html` · <span data-error>${a.error}</span>` : ''
  }`;
}

function timeline(m: PaymentsText, items: MerchantTimelineItem[], currency: string): SafeHtml {
  if (items.length === 0) return html`<p class="muted">${m.nothingYet}</p>`;
  return html`<div class="scroll"><table id="timeline"><thead><tr><th>${m.when}</th><th>${m.what}</th><th>${m.change}</th><th>${m.detail}</th></tr></thead>
<tbody>${items.map((i) => row(m, i, currency))}</tbody></table></div>`;
}

function refunds(m: PaymentsText, d: MerchantPaymentDetail): SafeHtml {
  if (d.refunds.length === 0) return html`<p class="muted" id="no-refunds">${m.noRefunds}</p>`;
  return html`<div class="scroll"><table id="refunds"><thead><tr><th>${m.created}</th><th>${m.refundId}</th><th>${m.amount}</th>
<th>${m.status}</th><th>${m.reason}</th><th>${m.completed}</th></tr></thead><tbody>${d.refunds.map(
    (r) => html`<tr data-refund-id="${r.id}"><td>${when(r.createdAt)}</td><td><code>${r.id}</code></td>
<td data-amount="${r.amount.toString()}">${amount(r.amount, r.currency)}</td><td>${statusBadge(r.status)}</td><td>${orDash(r.reason)}</td>
<td>${when(r.completedAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

function webhookEvents(m: PaymentsText, events: MerchantWebhookEvent[]): SafeHtml {
  if (events.length === 0) return html`<p class="muted" id="no-webhook-events">${m.noWebhookEvents}</p>`;
  return html`<div id="webhook-events">${events.map(
    (e) => html`<section class="card" data-event-id="${e.id}">
<dl class="fields">${field(m.event, html`<code>${e.id}</code>`, 'event_id')}${field(m.type, e.eventType, 'event_type')}
${field(m.status, statusBadge(e.status), 'event_status')}${field(m.attempts, String(e.attemptCount), 'attempt_count')}
${field(m.nextAttempt, when(e.nextAttemptAt), 'next_attempt_at')}${field(m.deliveredAt, when(e.deliveredAt), 'delivered_at')}
${field(m.target, orDash(e.targetUrl), 'target_url')}</dl>
${
  e.attempts.length === 0
    ? ''
    : html`<div class="scroll"><table class="attempts"><thead><tr><th>${m.attemptNo}</th><th>${m.when}</th><th>${m.change}</th></tr></thead>
<tbody>${e.attempts.map(
        (a) =>
          html`<tr data-attempt="${a.attemptNo}"><td>${a.attemptNo}</td><td>${when(a.at)}</td><td>${attemptResult(m, a)}</td></tr>`,
      )}</tbody></table></div>`
}</section>`,
  )}</div>`;
}
