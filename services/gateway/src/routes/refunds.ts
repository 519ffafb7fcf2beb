import { Router } from 'express';
import { findMerchantRefund, requestRefund, type RequestRefundDeps } from '@mm/collections';
import { DomainError } from '@mm/domain';
import { idempotencyKeyOf } from '../validation/idempotency-key.js';
import { refundSchema } from '../validation/refund-schema.js';
import { validate } from '../validation/validate.js';
import { isUuid } from '../validation/uuid.js';
import { jsonBodyOf, merchantContext, setTransactionId, signedRequestOf } from '../http/request-context.js';
import { signedRequestHash } from '../http/signed-request.js';

export function refundsRouter(deps: RequestRefundDeps): Router {
  const router = Router();

  router.post('/refunds', async (req, res) => {
    const body = validate(refundSchema, jsonBodyOf(res));
    const key = idempotencyKeyOf(req);
    const { replayed, record } = await requestRefund(
      deps,
      merchantContext(res).merchantId,
      body,
      key,
      signedRequestHash(signedRequestOf(res)),
    );
    setTransactionId(res, body.transaction_id);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(replayed ? 200 : 202).json({ data: record });
  });

  router.get('/refunds/:id', async (req, res) => {
    const id = req.params.id;
    const refund = isUuid(id) ? await findMerchantRefund(deps, merchantContext(res).merchantId, id) : null;
    if (!refund) throw new DomainError('NOT_FOUND', 'no refund with this id');
    setTransactionId(res, refund.transactionId);
    res.json({ data: refund.record });
  });

  return router;
}
