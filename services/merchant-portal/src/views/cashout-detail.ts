import type { MerchantPaymentDetail } from '@mm/db/payments';
import { maskMsisdn } from '@mm/domain';
import { amount, html, orDash, statusBadge, when, type SafeHtml } from '@mm/web';
import type { CashoutsText } from '../i18n/cashouts.js';
import { cashoutStatus } from './cashouts.js';

function field(label: string, value: SafeHtml | string, key: string): SafeHtml {
  return html`<dt>${label}</dt><dd data-field="${key}">${value}</dd>`;
}

/**
 * One cash-out: what was asked, where it stands (in words when it waits for our approval) and its status
 * history; the operator's references and the webhooks are on its payment page, linked. Headed by its
 * amount: a portal order id (portal:<uuid>) is one long word a phone cannot wrap.
 */
export function cashoutDetailView(m: CashoutsText, detail: MerchantPaymentDetail, notice?: string): SafeHtml {
  const t = detail.transaction;
  const states = detail.timeline.flatMap((i) => (i.kind === 'state' ? [i] : []));
  return html`<p><a href="/cashouts">${m.back}</a></p>
<h1>${m.cashout} ${amount(t.amount, t.currency)}</h1>
${notice ? html`<p class="notice" id="cashout-notice" role="status">${notice}</p>` : ''}
${t.status === 'AWAITING_APPROVAL' ? html`<p class="notice" id="awaiting-approval">${m.awaitingApprovalHelp}</p>` : ''}
<dl class="fields" id="cashout-fields">
${field(m.id, html`<code>${t.id}</code>`, 'id')}
${field(m.orderId, t.merchantOrderId, 'merchant_order_id')}
${field(m.status, cashoutStatus(m, t), 'status')}
${field(m.amountField, amount(t.amount, t.currency), 'amount')}
${field(m.recipient, maskMsisdn(t.msisdn), 'msisdn')}
${field(m.operator, t.operator, 'operator')}
${field(m.country, t.countryCode, 'country')}
${field(m.reasonField, orDash(t.motif), 'reason')}
${field(m.failureCode, orDash(t.failureCode), 'failure_code')}
${field(m.failureReason, orDash(t.failureReason), 'failure_reason')}
${field(m.created, when(t.createdAt), 'created_at')}
${field(m.completed, when(t.completedAt), 'completed_at')}
${field(m.updated, when(t.updatedAt), 'updated_at')}
</dl>
<h2>${m.history}</h2>
<div class="scroll"><table id="cashout-history"><thead><tr><th>${m.when}</th><th>${m.change}</th><th>${m.cause}</th></tr></thead>
<tbody>${states.map(
    (s) => html`<tr data-to="${s.to}"><td>${when(s.at)}</td>
<td>${s.from ? html`${statusBadge(s.from)} → ` : ''}${statusBadge(s.to)}</td><td><code>${s.cause}</code></td></tr>`,
  )}</tbody></table></div>
<p><a id="payment-page" href="/payments/${t.id}">${m.fullHistory}</a></p>`;
}
