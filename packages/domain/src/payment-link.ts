import { isAmountInRange, type AmountLimits } from './currency.js';
import { DomainError, type FieldIssue } from './errors.js';
import type { TransactionStatus } from './transaction-status.js';

/** A link's state as the API and the dashboard show it (docs/payment-links.md). */
export const PAYMENT_LINK_STATUSES = ['ACTIVE', 'COMPLETED', 'EXPIRED', 'INACTIVE'] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];

/**
 * The payments that hold a place of a link's max_payments: those in progress, and those that took the
 * money (a refunded one, REVERSED, was still paid). A FAILED or EXPIRED attempt gives its place back;
 * an EXPIRED one confirmed late becomes SUCCESS and counts again (the money was taken: the merchant
 * refunds it if the link had been paid meanwhile).
 */
export const LINK_IN_PROGRESS_STATUSES = ['CREATED', 'INITIATED', 'PENDING'] as const satisfies TransactionStatus[];
export const LINK_PAID_STATUSES = ['SUCCESS', 'REVERSED'] as const satisfies TransactionStatus[];

/** The amount terms of a link: fixed, or bounds the customer types within. */
export type LinkAmount = { kind: 'fixed'; amount: number } | { kind: 'range'; min: number; max: number };

export interface NewLinkTerms {
  amount?: number;
  min_amount?: number;
  max_amount?: number;
  reusable?: boolean;
  max_payments?: number;
  expires_at?: string;
}

/**
 * The rules of a new link that a schema cannot say alone: one amount form, bounds in order and within
 * the service's limits, a cap only on a reusable link (a single-use link's cap is 1), an expiry in the
 * future. Throws the API's errors; returns what is stored.
 */
export function linkTerms(
  body: NewLinkTerms,
  limits: AmountLimits,
  currency: string,
  now: Date,
): { amount: LinkAmount; reusable: boolean; maxPayments: number | null; expiresAt: Date | null } {
  const issues: FieldIssue[] = [];
  const fixed = body.amount !== undefined;
  const ranged = body.min_amount !== undefined || body.max_amount !== undefined;
  if (fixed && ranged) issues.push({ field: 'amount', issue: 'give either amount, or min_amount and max_amount' });
  if (!fixed && !ranged) issues.push({ field: 'amount', issue: 'is required (or min_amount and max_amount)' });
  if (!fixed && ranged) {
    if (body.min_amount === undefined) issues.push({ field: 'min_amount', issue: 'is required with max_amount' });
    if (body.max_amount === undefined) issues.push({ field: 'max_amount', issue: 'is required with min_amount' });
    if (body.min_amount !== undefined && body.max_amount !== undefined && body.min_amount > body.max_amount)
      issues.push({ field: 'max_amount', issue: 'must be at least min_amount' });
  }
  const reusable = body.reusable ?? false;
  if (!reusable && body.max_payments !== undefined)
    issues.push({ field: 'max_payments', issue: 'is only for a reusable link (a single-use link takes one payment)' });
  const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
  if (expiresAt && !(expiresAt.getTime() > now.getTime()))
    issues.push({ field: 'expires_at', issue: 'must be in the future' });
  if (issues.length > 0) throw new DomainError('VALIDATION_ERROR', 'invalid payment link', issues);

  const amount: LinkAmount = fixed
    ? { kind: 'fixed', amount: body.amount! }
    : { kind: 'range', min: body.min_amount!, max: body.max_amount! };
  const bounds = amount.kind === 'fixed' ? [amount.amount] : [amount.min, amount.max];
  if (!bounds.every((a) => isAmountInRange(a, limits)))
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `amounts must be between ${limits.min} and ${limits.max} ${currency}`);
  return { amount, reusable, maxPayments: reusable ? (body.max_payments ?? null) : 1, expiresAt };
}

/**
 * The amount a customer pays through a link: the link's own when fixed; otherwise what they typed, a
 * whole number within the bounds (thousands grouped by spaces, or by dots in groups of three). null: not acceptable (the page says the bounds again).
 */
export function chosenLinkAmount(terms: LinkAmount, typed: string | undefined): number | null {
  if (terms.kind === 'fixed') return terms.amount;
  // Spaces group thousands anywhere; a dot only between groups of three ("5.000"): "12.5" is no amount.
  const spaced = (typed ?? '').replace(/[\s\u00a0\u202f]/g, '');
  if (spaced.includes('.') && !/^\d{1,3}(\.\d{3})+$/.test(spaced)) return null;
  const text = spaced.replace(/\./g, '');
  if (!/^\d{1,12}$/.test(text)) return null;
  const amount = Number(text);
  return amount >= terms.min && amount <= terms.max ? amount : null;
}

export interface LinkStateInputs {
  deactivatedAt: Date | null;
  expiresAt: Date | null;
  maxPayments: number | null;
  paid: number;
}

/** The link's status: deactivation first, then a cap reached by paid payments, then its expiry. */
export function linkStatus(link: LinkStateInputs, now: Date): PaymentLinkStatus {
  if (link.deactivatedAt) return 'INACTIVE';
  if (link.maxPayments !== null && link.paid >= link.maxPayments) return 'COMPLETED';
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return 'EXPIRED';
  return 'ACTIVE';
}

/**
 * Whether a new payment may start through the link, with the payments that hold its places counted
 * under its lock. BUSY: every place is held, some by payments still in progress (a single-use link that
 * a customer is paying now): free again if they fail or expire.
 */
export function linkRefusal(
  link: LinkStateInputs & { inProgress: number },
  now: Date,
): Exclude<PaymentLinkStatus, 'ACTIVE'> | 'BUSY' | null {
  const status = linkStatus(link, now);
  if (status !== 'ACTIVE') return status;
  if (link.maxPayments !== null && link.paid + link.inProgress >= link.maxPayments) return 'BUSY';
  return null;
}

/** A payment through a link refused before anything was written or sent to an operator. */
export class PaymentLinkRefused extends Error {
  override name = 'PaymentLinkRefused';
  constructor(readonly reason: Exclude<PaymentLinkStatus, 'ACTIVE'> | 'BUSY') {
    super(`payment link refused: ${reason}`);
  }
}

/**
 * The address a link is reached at, `<the gateway as customers reach it>/l/<slug>`: what the API answers as
 * `url`, what its QR codes hold and what the dashboard shows (the gateway's PUBLIC_BASE_URL, the portal's
 * GATEWAY_PUBLIC_URL).
 */
export function paymentLinkUrl(publicBaseUrl: string, slug: string): string {
  return `${publicBaseUrl.replace(/\/$/, '')}/l/${slug}`;
}
