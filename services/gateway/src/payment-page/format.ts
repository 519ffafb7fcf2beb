/** The no-break space used everywhere on the page (Intl's fr-FR grouping uses U+202F, which some fonts lack). */
export const NBSP = '\u00a0';

const CURRENCY_LABEL: Record<string, string> = { XOF: `F${NBSP}CFA`, XAF: `F${NBSP}CFA` };
const GROUPING = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0, useGrouping: true });

/** 5000n, 'XOF' -> "5 000 F CFA" (no-break spaces). Both franc zones read "F CFA" for the customer. */
export function formatAmount(amount: bigint | number, currency: string): string {
  const digits = GROUPING.format(amount).replace(/[\u202f\u00a0 ]/g, NBSP);
  return `${digits}${NBSP}${CURRENCY_LABEL[currency] ?? currency}`;
}

/** Whole seconds -> "mm:ss" (minutes are not capped at 59; never negative). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** The merchant's return_url with transaction_id and status added; null when it is not an http(s) URL. */
export function returnTarget(
  returnUrl: string | null | undefined,
  transactionId: string,
  status: string,
): string | null {
  if (!returnUrl) return null;
  let u: URL;
  try {
    u = new URL(returnUrl);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  u.searchParams.set('transaction_id', transactionId);
  u.searchParams.set('status', status);
  return u.toString();
}
