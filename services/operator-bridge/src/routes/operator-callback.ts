import express, { Router } from 'express';
import type { OperatorAdapter } from '@mm/operators';
import type { OperatorResultJob, QueueProducer } from '@mm/queues';

/**
 * The operator's result callback: verify, queue, answer. Applying happens in the worker, so the
 * operator gets its answer fast; a 5xx (queue unreachable) makes the operator retry, nothing is lost.
 */
export function operatorCallbackRouter(deps: { adapter: OperatorAdapter; results: QueueProducer<OperatorResultJob>; now(): number }): Router {
  const router = Router();
  router.post(`/operator/callbacks/${deps.adapter.name}`, express.raw({ type: () => true, limit: '16kb' }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const result = deps.adapter.parseCallback(body, req.headers, deps.now());
    if (!result) {
      res.status(401).json({ error: { code: 'INVALID_SIGNATURE', message: 'callback signature or timestamp is not valid' } });
      return;
    }
    await deps.results.add({
      provider_reference: result.partnerReference,
      provider_state: result.providerState,
      provider_txn_status: result.providerTxnStatus,
      provider_tx_id: result.providerTxId,
      provider_session_id: result.providerSessionId,
      failure_reason: result.failureReason,
      source: 'callback',
    });
    res.status(200).json({ received: true });
  });
  return router;
}
