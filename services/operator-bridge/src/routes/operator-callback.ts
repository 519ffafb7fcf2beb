import express, { Router, type Request, type Response } from 'express';
import type { Counter, Logger } from '@mm/observability';
import type { CallbackHint, OperatorAdapter, OperatorAdapters, VerifiedCallback } from '@mm/operators';
import type { OperatorResultJob, QueueProducer } from '@mm/queues';

export interface CallbackReplays {
  /** True when a delivery with this replay key was taken within the signature's tolerance. */
  taken(replayKey: string): Promise<boolean>;
  /**
   * Remembers a delivery once it is applied or queued, never before: a bridge that dies while taking
   * it has remembered nothing, so the operator's retry is taken. Two copies arriving together may
   * both be taken; the state machine makes the second one change nothing.
   */
  remember(replayKey: string): Promise<void>;
}

export interface OperatorCallbackDeps {
  /** The simulator's adapter (the services' OPERATOR_* settings): /operator/callbacks/simulator. */
  simulator: OperatorAdapter;
  /** The operator accounts' adapters: /operator/callbacks/{operator}/{country}[/{reference}]. */
  adapters: OperatorAdapters;
  results: QueueProducer<OperatorResultJob>;
  /**
   * Applies a signed result in the request, within its bound (InlineApplies); false, or a failure: it
   * is queued. Absent: every result is queued.
   */
  applyNow?(result: OperatorResultJob): Promise<boolean>;
  replays: CallbackReplays;
  /** Callbacks by outcome: applied, queued, replayed, invalid. */
  callbacks: Counter<'outcome'>;
  now(): number;
  logger: Logger;
}

const raw = express.raw({ type: () => true, limit: '16kb' });

function jobOf(result: VerifiedCallback | CallbackHint, operator: string): OperatorResultJob {
  if ('hint' in result) {
    return {
      provider_reference: result.partnerReference, provider_state: 'PENDING', provider_txn_status: null,
      provider_tx_id: null, provider_session_id: null, failure_reason: null, source: 'hint', operator,
    };
  }
  return {
    provider_reference: result.partnerReference,
    provider_state: result.providerState,
    provider_txn_status: result.providerTxnStatus,
    provider_tx_id: result.providerTxId,
    provider_session_id: result.providerSessionId,
    failure_reason: result.failureReason,
    source: 'callback',
    operator,
    ...(result.reported ? { reported: result.reported } : {}),
  };
}

/**
 * The operators' result callbacks: verify, apply or queue, answer. A signed callback whose signature
 * holds and that needs nothing but the database is applied in the request, in one database transaction
 * (its commit is as durable as a queued job, and it saves a queue hop per payment), within a bound
 * (InlineApplies: how many at once, how long each); when that fails or runs late (the database
 * unreachable, a lock held too long) it is queued instead. An unsigned one (MTN, Orange)
 * and a result that needs the operator's status are queued for the worker, whose retries a slow
 * operator needs. A 5xx (neither applied nor queued) makes the operator retry, nothing is lost. The
 * same delivery is taken once: sent again (captured and replayed, or retried by the operator although
 * we had taken it), it is acknowledged and dropped. A delivery is remembered only once it is taken, so
 * the operator's retry of one that could not be taken (or whose bridge died) is taken.
 */
export function operatorCallbackRouter(deps: OperatorCallbackDeps): Router {
  const router = Router();
  const take = async (req: Request, res: Response, adapter: OperatorAdapter, account: { key: string; operator: string }, path: string) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const result = adapter.parseCallback(body, req.headers, deps.now(), path);
    if (!result) {
      deps.callbacks.inc({ outcome: 'invalid' });
      res.status(401).json({ error: { code: 'INVALID_SIGNATURE', message: 'callback signature or timestamp is not valid' } });
      return;
    }
    const replayKey = `${account.key}:${result.replayKey}`;
    if (await deps.replays.taken(replayKey)) {
      deps.callbacks.inc({ outcome: 'replayed' });
      res.status(200).json({ received: true, duplicate: true });
      return;
    }
    const job = jobOf(result, account.operator);
    const applied = !('hint' in result) && deps.applyNow !== undefined && (await deps.applyNow(job).catch((err: unknown) => {
      deps.logger.warn({ err, providerReference: job.provider_reference }, 'operator result not applied in the callback; queued for the worker');
      return false;
    }));
    // Not remembered if this throws: the 5xx makes the operator send it again, and that is taken.
    if (!applied) await deps.results.add(job);
    await deps.replays.remember(replayKey).catch((err: unknown) => deps.logger.warn({ err }, 'callback replay key not recorded'));
    deps.callbacks.inc({ outcome: applied ? 'applied' : 'queued' });
    res.status(200).json({ received: true });
  };

  router.post('/operator/callbacks/simulator', raw, (req, res) => take(req, res, deps.simulator, { key: 'simulator', operator: 'SIMULATOR' }, ''));

  // MTN says to allow PUT as well as POST for its callbacks.
  router.all('/operator/callbacks/:operator/:country{/*rest}', raw, async (req, res) => {
    if (req.method !== 'POST' && req.method !== 'PUT') {
      res.status(405).setHeader('Allow', 'POST, PUT').json({ error: { code: 'METHOD_NOT_ALLOWED', message: 'callbacks are POST or PUT' } });
      return;
    }
    const { operator, country } = req.params as { operator: string; country: string };
    const rest = (req.params as { rest?: string[] }).rest ?? [];
    // Our references are 22 characters: anything longer names no payment (and would not fit the queue's job).
    const adapter = /^[a-z][a-z0-9_]{1,31}$/.test(operator) && /^[a-z]{2}$/.test(country) && rest.join('/').length <= 100
      ? await deps.adapters.adapterFor({ countryCode: country.toUpperCase(), operator: operator.toUpperCase() }).catch((err: unknown) => {
        deps.logger.warn({ err, operator, country }, 'callback for an operator account that cannot be used');
        return null;
      })
      : null;
    if (!adapter) {
      res.status(404).json({ error: { code: 'NOT_FOUND', message: 'no such operator account' } });
      return;
    }
    await take(req, res, adapter, { key: `${country}:${operator}`, operator: operator.toUpperCase() }, rest.join('/'));
  });
  return router;
}
