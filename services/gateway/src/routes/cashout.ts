import { Router } from 'express';
import { requestCashout, type RequestCashoutDeps } from '@mm/collections';
import { presentCashoutResponse } from '../presenters/transaction-presenter.js';
import { cashoutSchema } from '../validation/cashout-schema.js';
import { validate } from '../validation/validate.js';
import { jsonBodyOf, merchantContext, setTransactionId, signedRequestOf } from '../http/request-context.js';
import { signedRequestHash } from '../http/signed-request.js';

/** decisions 7: 501 while disbursement is off; otherwise 202 with the CASHOUT transaction (200 on a replay). */
export function cashoutRouter(deps: RequestCashoutDeps): Router {
  const router = Router();
  router.post('/payments/cashout', async (_req, res) => {
    const body = validate(cashoutSchema, jsonBodyOf(res));
    const { replayed, transaction } = await requestCashout(
      deps,
      merchantContext(res).merchantId,
      body,
      signedRequestHash(signedRequestOf(res)),
    );
    setTransactionId(res, transaction.id);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(replayed ? 200 : 202).json({ data: presentCashoutResponse(transaction) });
  });
  return router;
}
