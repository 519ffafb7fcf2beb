import express, { Router } from 'express';
import type { Counter } from '@mm/observability';
import type { OperatorAdapter } from '@mm/operators';
import type { OperatorResultJob, QueueProducer } from '@mm/queues';

export interface CallbackReplays {
  /** True the first time a delivery's replay key is seen within the signature's tolerance. */
  firstDelivery(replayKey: string): Promise<boolean>;
  /** Forgets a delivery that could not be queued, so the operator's retry of it is taken. */
  forget(replayKey: string): Promise<void>;
}

export interface OperatorCallbackDeps {
  adapter: OperatorAdapter;
  results: QueueProducer<OperatorResultJob>;
  replays: CallbackReplays;
  /** Callbacks by outcome: queued, replayed, invalid. */
  callbacks: Counter<'outcome'>;
  now(): number;
}

/**
 * The operator's result callback: verify, queue, answer. Applying happens in the worker, so the
 * operator gets its answer fast; a 5xx (queue unreachable) makes the operator retry, nothing is lost.
 * The same signed delivery is queued once: sent again (captured and replayed, or retried by the
 * operator although we had taken it), it is acknowledged and dropped. A delivery that could not be
 * queued is forgotten, so the operator's retry after our 5xx is still taken.
 */
export function operatorCallbackRouter(deps: OperatorCallbackDeps): Router {
  const router = Router();
  router.post(`/operator/callbacks/${deps.adapter.name}`, express.raw({ type: () => true, limit: '16kb' }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const result = deps.adapter.parseCallback(body, req.headers, deps.now());
    if (!result) {
      deps.callbacks.inc({ outcome: 'invalid' });
      res.status(401).json({ error: { code: 'INVALID_SIGNATURE', message: 'callback signature or timestamp is not valid' } });
      return;
    }
    if (!(await deps.replays.firstDelivery(result.replayKey))) {
      deps.callbacks.inc({ outcome: 'replayed' });
      res.status(200).json({ received: true, duplicate: true });
      return;
    }
    try {
      await deps.results.add('hint' in result ? {
        provider_reference: result.partnerReference, provider_state: 'PENDING', provider_txn_status: null,
        provider_tx_id: null, provider_session_id: null, failure_reason: null, source: 'hint',
      } : {
        provider_reference: result.partnerReference,
        provider_state: result.providerState,
        provider_txn_status: result.providerTxnStatus,
        provider_tx_id: result.providerTxId,
        provider_session_id: result.providerSessionId,
        failure_reason: result.failureReason,
        source: 'callback',
      });
    } catch (err) {
      await deps.replays.forget(result.replayKey).catch(() => undefined);
      throw err;
    }
    deps.callbacks.inc({ outcome: 'queued' });
    res.status(200).json({ received: true });
  });
  return router;
}
