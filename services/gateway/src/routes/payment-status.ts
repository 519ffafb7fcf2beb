import type { RequestHandler } from 'express';
import { DomainError } from '@mm/domain';
import { readTransactionStatus } from '@mm/db/payments';
import { type Db } from '@mm/db';
import { presentStatusResponse } from '../presenters/transaction-presenter.js';
import { isUuid } from '../validation/uuid.js';
import { merchantContext, setTransactionId } from '../http/request-context.js';

/**
 * GET /api/v1/payments/{id}: the merchant's transaction as the status response shows it. Behind the
 * API's authentication, rate limit and body checks like every API route; mounted by app.ts on the app
 * itself rather than in a router (the most frequent request of the API: it walks no router to get here).
 */
export function paymentStatus(deps: { db: Db }): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const id = req.params.id;
    // Another merchant's transaction answers exactly like an unknown one.
    const transaction = isUuid(id) ? await readTransactionStatus(deps.db, id, merchantContext(res).merchantId) : null;
    if (!transaction) throw new DomainError('NOT_FOUND', 'no transaction with this id');
    setTransactionId(res, transaction.id);
    res.json({ data: presentStatusResponse(transaction) });
  };
}
