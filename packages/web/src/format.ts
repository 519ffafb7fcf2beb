/** How values look on every page of the back-office and the merchant portal: one place, so pages agree. */
import { html, type SafeHtml } from './html.js';

/** UTC, to the second, with the exact instant in `datetime` (staff in several countries compare them). */
export function when(at: Date | null | undefined): SafeHtml {
  if (!at) return html`<span class="muted">—</span>`;
  const iso = at.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** Whole francs (neither XOF nor XAF has a minor unit), thousands grouped: "1 250 000 XOF". */
export function amount(value: bigint | number, currency: string): string {
  return `${value.toString().replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')} ${currency}`;
}

/** The hidden field every POST form carries (csrf-sync checks it before any handler runs). */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** A value that may be missing: a dash instead of an empty cell. */
export function orDash(value: string | number | bigint | null | undefined): SafeHtml {
  return value === null || value === undefined || value === ''
    ? html`<span class="muted">—</span>`
    : html`${String(value)}`;
}

/** JSON (audit before/after, metadata, operator detail) as an escaped, indented block. */
export function jsonBlock(value: unknown): SafeHtml {
  if (value === null || value === undefined) return html`<span class="muted">—</span>`;
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
  return html`<pre class="json">${text}</pre>`;
}

/** Status badge; failures and abandoned deliveries stand out. */
export function statusBadge(status: string): SafeHtml {
  const tone = /^(FAILED|ABANDONED|EXPIRED|REVERSED)$/.test(status)
    ? ' off'
    : status === 'SUCCESS' || status === 'DELIVERED'
      ? ' ok'
      : '';
  return html`<span class="badge${tone}" data-status="${status}">${status}</span>`;
}
