import { Router } from 'express';
import { requestRefund, type RequestRefundDeps } from '@mm/collections';
import { DomainError, refundRecord } from '@mm/domain';
import { refundSnapshotOf } from '@mm/db/payments';
import { idempotencyKeySchema, refundSchema } from '../validation/refund-schema.js';
import { invalidField, validate } from '../validation/validate.js';
import { isUuid } from '../validation/uuid.js';
import { jsonBodyOf, merchantContext, setTransactionId, signedRequestOf } from '../http/request-context.js';
import { signedRequestHash } from '../http/signed-request.js';

export function refundsRouter(deps: RequestRefundDeps): Router {
  const router = Router();

  router.post('/refunds', async (req, res) => {
    const body = validate(refundSchema, jsonBodyOf(res));
    const key = req.get('idempotency-key') ?? null;
    if (key !== null && idempotencyKeySchema.validate(key).error) throw invalidField('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    const { replayed, record } = await requestRefund(deps, merchantContext(res).merchantId, body, key, signedRequestHash(signedRequestOf(res)));
    setTransactionId(res, body.transaction_id);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(replayed ? 200 : 202).json({ data: record });
  });

  router.get('/refunds/:id', async (req, res) => {
    const id = req.params.id;
    // The return of a late success is the customer's money going back, not a refund the merchant asked
    // for (decisions 13): it does not exist for the merchant.
    const refund = isUuid(id)
      ? await deps.db.refund.findFirst({ where: { id, merchantId: merchantContext(res).merchantId, origin: 'MERCHANT' }, include: { transaction: { select: { merchantOrderId: true } } } })
      : null;
    if (!refund) throw new DomainError('NOT_FOUND', 'no refund with this id');
    setTransactionId(res, refund.transactionId);
    res.json({ data: refundRecord(refundSnapshotOf(refund, refund.transaction.merchantOrderId)) });
  });

  return router;
}
