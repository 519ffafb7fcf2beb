import { Router } from 'express';
import { initiateCashin, type InitiateCashinDeps } from '@mm/collections';
import type { Db } from '@mm/db';
import { cashinSchema } from '../validation/cashin-schema.js';
import { validate } from '../validation/validate.js';
import { presentCashinResponse } from '../presenters/transaction-presenter.js';
import { jsonBodyOf, merchantContext, setTransactionId } from '../http/request-context.js';

export function paymentsRouter(deps: InitiateCashinDeps & { db: Db; paymentUrl(id: string): string }): Router {
  const router = Router();

  router.post('/payments/cashin', async (_req, res) => {
    const body = validate(cashinSchema, jsonBodyOf(res));
    const { replayed, transaction } = await initiateCashin(deps, merchantContext(res).merchantId, body);
    setTransactionId(res, transaction.id);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res
      .status(replayed ? 200 : 202)
      .json({ data: presentCashinResponse(transaction, deps.paymentUrl(transaction.id)) });
  });

  // GET /payments/:id (the status read) is mounted by app.ts on the app itself: routes/payment-status.ts.

  return router;
}
