import { rawQuery, type Db } from '../database/index.js';
import { Prisma } from '../generated/prisma/client.js';

/** One payment made through a link, as the link's page lists it. */
export interface LinkPaymentRow {
  id: string;
  merchantOrderId: string;
  status: string;
  amount: bigint;
  refundedAmount: bigint;
  currency: string;
  msisdn: string;
  operator: string;
  createdAt: Date;
}

export interface LinkPaymentsPage {
  rows: LinkPaymentRow[];
  /** More payments than `limit` were made through the link (the page shows the newest only). */
  hasMore: boolean;
}

/**
 * The newest `limit` transactions made through the link `linkId` of the merchant, newest first
 * (transactions_payment_link_idx). Another merchant's link gives an empty page, like an unknown one.
 */
export async function listLinkPayments(
  db: Db,
  q: { merchantId: string; linkId: string; limit: number },
): Promise<LinkPaymentsPage> {
  const rows = await rawQuery<LinkPaymentRow>(
    db,
    Prisma.sql`SELECT t.id, t.merchant_order_id AS "merchantOrderId", t.status, t.amount,
      t.refunded_amount AS "refundedAmount", t.currency, t.msisdn, t.operator, t.created_at AS "createdAt"
    FROM transactions t
    WHERE t.payment_link_id = ${q.linkId}::uuid AND t.merchant_id = ${q.merchantId}::uuid
    ORDER BY t.created_at DESC, t.id DESC LIMIT ${q.limit + 1}`,
  );
  return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
}
