import { LINK_IN_PROGRESS_STATUSES, LINK_PAID_STATUSES, linkStatus, type PaymentLinkStatus } from '@mm/domain';
import { Prisma } from '../generated/prisma/client.js';

/** A payment link as stored, with what its payments add up to (docs/payment-links.md). */
export interface PaymentLinkRecord {
  id: string;
  merchantId: string;
  slug: string;
  description: string;
  countryCode: string;
  currency: string;
  amount: bigint | null;
  minAmount: bigint | null;
  maxAmount: bigint | null;
  reusable: boolean;
  maxPayments: number | null;
  expiresAt: Date | null;
  redirectUrl: string | null;
  metadata: Record<string, unknown> | null;
  deactivatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Payments that took the money (SUCCESS, REVERSED). */
  paid: number;
  /** Payments still in progress (CREATED, INITIATED, PENDING). */
  inProgress: number;
  /** What the paid ones brought in, less their refunds. */
  collected: bigint;
  status: PaymentLinkStatus;
}

const list = (statuses: readonly string[]) => Prisma.join(statuses.map((s) => Prisma.sql`${s}`));

/** The link's columns under their record names, then its payments' counts (`c`, countsJoin). */
export const LINK_COLUMNS = Prisma.sql`l.id, l.merchant_id AS "merchantId", l.slug, l.description,
  l.country_code AS "countryCode", l.currency, l.amount, l.min_amount AS "minAmount", l.max_amount AS "maxAmount",
  l.reusable, l.max_payments AS "maxPayments", l.expires_at AS "expiresAt", l.redirect_url AS "redirectUrl",
  l.metadata, l.deactivated_at AS "deactivatedAt", l.created_at AS "createdAt", l.updated_at AS "updatedAt",
  c.paid, c.in_progress AS "inProgress", c.collected`;

/** One pass over the link's payments (transactions_payment_link_idx). */
export const COUNTS_JOIN = Prisma.sql`CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE t.status IN (${list(LINK_PAID_STATUSES)}))::int AS paid,
         count(*) FILTER (WHERE t.status IN (${list(LINK_IN_PROGRESS_STATUSES)}))::int AS in_progress,
         COALESCE(sum(t.amount - t.refunded_amount) FILTER (WHERE t.status IN (${list(LINK_PAID_STATUSES)})), 0)::bigint AS collected
  FROM transactions t WHERE t.payment_link_id = l.id) c`;

export type LinkRow = Omit<PaymentLinkRecord, 'status'>;

export function recordOf(row: LinkRow, now: Date): PaymentLinkRecord {
  return { ...row, status: linkStatus(row, now) };
}

/**
 * A status filter of the list in SQL, the same rule as linkStatus (link-records.test.ts holds them
 * together): deactivation first, then a cap reached by paid payments, then the expiry.
 */
export function statusCondition(status: PaymentLinkStatus, now: Date): Prisma.Sql {
  const completed = Prisma.sql`(l.max_payments IS NOT NULL AND c.paid >= l.max_payments)`;
  const expired = Prisma.sql`(l.expires_at IS NOT NULL AND l.expires_at <= ${now}::timestamptz)`;
  switch (status) {
    case 'INACTIVE':
      return Prisma.sql`l.deactivated_at IS NOT NULL`;
    case 'COMPLETED':
      return Prisma.sql`l.deactivated_at IS NULL AND ${completed}`;
    case 'EXPIRED':
      return Prisma.sql`l.deactivated_at IS NULL AND NOT ${completed} AND ${expired}`;
    case 'ACTIVE':
      return Prisma.sql`l.deactivated_at IS NULL AND NOT ${completed} AND NOT ${expired}`;
  }
}
