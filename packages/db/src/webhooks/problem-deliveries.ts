import type { Db } from '../database/index.js';

/**
 * Deliveries that need a look: ABANDONED ones (retries exhausted; they can be re-sent) and 'failing'
 * ones (PENDING with at least one failed attempt; the dispatcher is still retrying them).
 */
export type DeliveryProblem = 'abandoned' | 'failing';

export async function listProblemDeliveries(
  db: Db,
  q: { problem: DeliveryProblem; merchantId?: string; limit: number },
) {
  return db.webhookEvent.findMany({
    where: {
      ...(q.problem === 'abandoned' ? { status: 'ABANDONED' } : { status: 'PENDING', attemptCount: { gt: 0 } }),
      ...(q.merchantId ? { merchantId: q.merchantId } : {}),
    },
    orderBy: { createdAt: 'desc' },
    take: q.limit,
    include: { merchant: { select: { name: true } }, attempts: { orderBy: { attemptNo: 'desc' }, take: 1 } },
  });
}
