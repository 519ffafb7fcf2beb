import { Router } from 'express';
import { DomainError } from '@mm/domain';
import type { Db } from '@mm/db';
import { readTransactionStatus } from '@mm/db';
import { initiateCashin, type InitiateCashinDeps } from '../use-cases/initiate-cashin.js';
import { cashinSchema } from '../validation/cashin-schema.js';
import { validate } from '../validation/validate.js';
import { presentCashinResponse, presentStatusResponse } from '../presenters/transaction-presenter.js';
import { isUuid } from '../validation/uuid.js';
import { jsonBodyOf, merchantContext, setTransactionId } from '../http/request-context.js';

export function paymentsRouter(deps: InitiateCashinDeps & { db: Db; paymentUrl(id: string): string }): Router {
  const router = Router();

  router.post('/payments/cashin', async (_req, res) => {
    const body = validate(cashinSchema, jsonBodyOf(res));
    const { replayed, transaction } = await initiateCashin(deps, merchantContext(res).merchantId, body);
    setTransactionId(res, transaction.id);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(replayed ? 200 : 202).json({ data: presentCashinResponse(transaction, deps.paymentUrl(transaction.id)) });
  });

  router.get('/payments/:id', async (req, res) => {
    const id = req.params.id;
    // Another merchant's transaction answers exactly like an unknown one.
    const transaction = isUuid(id) ? await readTransactionStatus(deps.db, id, merchantContext(res).merchantId) : null;
    if (!transaction) throw new DomainError('NOT_FOUND', 'no transaction with this id');
    setTransactionId(res, transaction.id);
    res.json({ data: presentStatusResponse(transaction) });
  });

  return router;
}
