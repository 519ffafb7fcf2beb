import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler, type Response } from 'express';
import Joi from 'joi';
import type { PushEngine } from '../push-engine.js';
import type { Push, PushStore } from '../push-store.js';
import type { TimerSet } from '../timer-set.js';
import type { PushRequestBody } from '../wire.js';

export interface OperatorApiDeps {
  apiToken: string;
  engine: PushEngine;
  store: PushStore;
  timers: TimerSet;
  hangMs: number;
}

const pushSchema = Joi.object<PushRequestBody>({
  partner_reference: Joi.string().min(1).max(128).required(),
  msisdn: Joi.string().pattern(/^\+?\d{6,15}$/).required(),
  amount: Joi.number().positive().precision(2).max(1e12).required(),
  currency: Joi.string().pattern(/^[A-Z]{3}$/).required(),
  motif: Joi.string().max(255).allow(null, '').default(null),
  callback_url: Joi.string().uri({ scheme: ['http', 'https'] }).required(),
})
  .required()
  .prefs({ convert: false, abortEarly: false, stripUnknown: true });

/** The operator's partner API, the part a real operator would expose to us: /v1, bearer token. */
export function operatorApiRouter(deps: OperatorApiDeps): Router {
  const router = Router();
  router.use(requireBearer(deps.apiToken));

  router.post('/payments/ussd-push', (req, res) => {
    const { value, error } = pushSchema.validate(req.body);
    if (error) {
      res.status(400).json({ error: 'invalid_request', message: error.message });
      return;
    }
    const outcome = deps.engine.push(value);
    if (outcome.kind === 'hang') {
      hang(res, deps);
      return;
    }
    if (outcome.replayed) res.set('Idempotent-Replayed', 'true');
    if (outcome.kind === 'rejected') {
      res.status(200).json({ state: outcome.push.state, txn_status: outcome.push.txn_status });
      return;
    }
    res.status(201).json({ session_id: outcome.push.sessionId, state: outcome.push.state });
  });

  router.get('/payments/:reference', (req, res) => {
    const push = deps.store.get(req.params.reference);
    if (!push) {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    res.json(statusBodyOf(push));
  });

  return router;
}

function statusBodyOf(push: Push) {
  return {
    partner_reference: push.partnerReference,
    session_id: push.sessionId,
    state: push.state,
    txn_status: push.txn_status,
    provider_tx_id: push.provider_tx_id,
    failure_reason: push.failure_reason,
  };
}

/** The operator's timeout: nothing is registered and the answer only comes after the caller has given up. */
function hang(res: Response, deps: OperatorApiDeps): void {
  const timer = deps.timers.after(deps.hangMs, () => {
    if (!res.headersSent) res.status(504).json({ error: 'upstream_timeout' });
  });
  res.on('close', () => deps.timers.cancel(timer));
}

function requireBearer(token: string): RequestHandler {
  // Compare digests so the comparison is constant time whatever the header's length.
  const expected = createHash('sha256').update(`Bearer ${token}`).digest();
  return (req, res, next) => {
    const given = createHash('sha256').update(req.get('authorization') ?? '').digest();
    if (timingSafeEqual(given, expected)) {
      next();
      return;
    }
    res.status(401).json({ error: 'unauthorized' });
  };
}
