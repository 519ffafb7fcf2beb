import type { Db } from '../database/index.js';
import type { Prisma, Transaction } from '../generated/prisma/client.js';

/** The back-office search (issue 6) and the merchant portal's (merchantId set). Every field is optional; given ones are ANDed. */
export interface TransactionSearch {
  id?: string;
  merchantOrderId?: string;
  /** E.164, as stored. */
  msisdn?: string;
  status?: string;
  type?: string;
  merchantId?: string;
  countryCode?: string;
  /** The operator it went through (OPERATORS). */
  operator?: string;
  /** amount >= amountMin */
  amountMin?: bigint;
  /** amount <= amountMax */
  amountMax?: bigint;
  /** created_at >= from */
  from?: Date;
  /** created_at < to */
  to?: Date;
  /** Payments through this payment link (transactions_payment_link_idx). */
  paymentLinkId?: string;
}

export interface SearchPage {
  rows: (Transaction & { merchant: { name: string } })[];
  /** Pass back as `after` for the next (older) page; null on the last page. */
  next: { createdAt: Date; id: string } | null;
}

/**
 * Newest first, keyset-paginated on (created_at, id) so a page deep in a large table costs the same
 * as the first. Each filter is served by an index (id, order id, msisdn, merchant, created_at); within one
 * merchant, status and amount by their own (merchant_id, status | amount, created_at) indexes.
 */
export async function searchTransactions(
  db: Db,
  q: TransactionSearch,
  page: { limit: number; after?: { createdAt: Date; id: string } },
): Promise<SearchPage> {
  const where: Prisma.TransactionWhereInput = {
    ...(q.id ? { id: q.id } : {}),
    ...(q.merchantOrderId ? { merchantOrderId: q.merchantOrderId } : {}),
    ...(q.msisdn ? { msisdn: q.msisdn } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.type ? { type: q.type } : {}),
    ...(q.merchantId ? { merchantId: q.merchantId } : {}),
    ...(q.countryCode ? { countryCode: q.countryCode } : {}),
    ...(q.operator ? { operator: q.operator } : {}),
    ...(q.paymentLinkId ? { paymentLinkId: q.paymentLinkId } : {}),
    ...(q.amountMin !== undefined || q.amountMax !== undefined
      ? {
          amount: {
            ...(q.amountMin !== undefined ? { gte: q.amountMin } : {}),
            ...(q.amountMax !== undefined ? { lte: q.amountMax } : {}),
          },
        }
      : {}),
    ...(q.from || q.to ? { createdAt: { ...(q.from ? { gte: q.from } : {}), ...(q.to ? { lt: q.to } : {}) } } : {}),
  };
  const after = page.after;
  const rows = await db.transaction.findMany({
    where: after
      ? {
          AND: [
            where,
            // Implied by the OR below, but PostgreSQL only bounds an index scan by a plain condition: without
            // it a page deep in a merchant's history reads every newer row of the index again.
            { createdAt: { lte: after.createdAt } },
            { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] },
          ],
        }
      : where,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit + 1,
    include: { merchant: { select: { name: true } } },
  });
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  return { rows: shown, next: more && last ? { createdAt: last.createdAt, id: last.id } : null };
}
