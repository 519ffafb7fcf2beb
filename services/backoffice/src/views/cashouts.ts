import type { Transaction } from '@mm/db';
import { amount, csrfField, when, html, type SafeHtml } from '@mm/web';

export type AwaitingCashout = Transaction & { merchant: { name: string } };

export interface CashoutsView {
  awaiting: AwaitingCashout[];
  canDecide: boolean;
  csrfToken: string;
  notice?: string;
}

function decisionForms(t: AwaitingCashout, csrf: string): SafeHtml {
  return html`<form method="post" action="/cashouts/${t.id}/approve" class="inline">
${csrfField(csrf)}
<button type="submit" data-action="approve">Approve</button></form>
<form method="post" action="/cashouts/${t.id}/reject" class="inline">
${csrfField(csrf)}
<input type="text" name="reason" required minlength="3" maxlength="255" placeholder="Reason for rejecting" aria-label="Reason for rejecting">
<button type="submit" class="danger" data-action="reject">Reject</button></form>`;
}

/** Cash-outs waiting for an approver, oldest first (the longest-waiting merchant first). Rows: tr[data-cashout-id]. */
export function cashoutsView(v: CashoutsView): SafeHtml {
  const rows = v.awaiting.map(
    (t) => html`<tr data-cashout-id="${t.id}" data-order-id="${t.merchantOrderId}">
<td>${when(t.createdAt)}</td>
<td>${t.merchant.name}</td>
<td><a href="/transactions/${t.id}">${t.merchantOrderId}</a></td>
<td class="num">${amount(t.amount, t.currency)}</td>
<td>${t.msisdn}</td>
<td>${t.motif ?? ''}</td>
<td>${v.canDecide ? decisionForms(t, v.csrfToken) : html`<span class="muted">approvers only</span>`}</td></tr>`,
  );
  return html`<h1>Cash-out approvals</h1>
${v.notice ? html`<p class="notice" id="cashouts-notice">${v.notice}</p>` : ''}
<p class="muted">Cash-outs at or above the approval threshold (<code>CASHOUT_APPROVAL_THRESHOLD</code>), and every cash-out past the merchant's
or the beneficiary's 24-hour total (<code>CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL</code>, <code>CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL</code>),
wait here with their amount reserved; a transaction's timeline says which rule held it.
Approved, one is sent to the operator at once; rejected, it fails with your reason (sent to the merchant) and the reservation is released.</p>
${
  v.awaiting.length === 0
    ? html`<p id="cashouts-empty">Nothing is waiting for approval.</p>`
    : html`<table id="cashouts-table"><thead><tr><th>Requested</th><th>Merchant</th><th>Order</th><th>Amount</th><th>Beneficiary</th><th>Reason</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>`
}`;
}
