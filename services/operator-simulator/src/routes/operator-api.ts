import { Router, type RequestHandler, type Response } from 'express';
import Joi from 'joi';
import type { DisbursementBook } from '../disbursement-book.js';
import type { PushEngine } from '../push-engine.js';
import type { PushStore } from '../push-store.js';
import type { RefundBook } from '../refund-book.js';
import type { Plants, TimerSet } from '@mm/fake-operator';
import type { DisbursementRequestBody, PushRequestBody, RefundRequestBody } from '../wire.js';
import { ONE_TIME_CODE, OTP_USSD, requiresOneTimeCode } from '../scenarios.js';
import { sameSecret } from './same-secret.js';
import { disbursementKey, pushKey, refundKey, simulatorLines } from '../movements.js';
import { plantedDisbursement, plantedPayment, plantedRefund } from '../planted-answers.js';
import { transactionsRouter } from './transactions.js';

export interface OperatorApiDeps {
  apiToken: string;
  engine: PushEngine;
  store: PushStore;
  refunds: RefundBook;
  disbursements: DisbursementBook;
  timers: TimerSet;
  hangMs: number;
  /** Differences planted in the operator's books (sandbox): its status reads and its list tell them. */
  plants: Plants;
  /** Items per page of GET /v1/transactions. */
  transactionsPageSize: number;
}

const pushSchema = Joi.object<PushRequestBody>({
  partner_reference: Joi.string().min(1).max(128).required(),
  msisdn: Joi.string()
    .pattern(/^\+?\d{6,15}$/)
    .required(),
  amount: Joi.number().positive().precision(2).max(1e12).required(),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .required(),
  motif: Joi.string().max(255).allow(null, '').default(null),
  callback_url: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .required(),
})
  .required()
  .prefs({ convert: false, abortEarly: false, stripUnknown: true });

const refundSchema = Joi.object<RefundRequestBody>({
  partner_reference: Joi.string().min(1).max(128).required(),
  original_partner_reference: Joi.string().min(1).max(128).required(),
  amount: Joi.number().positive().precision(2).max(1e12).required(),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .required(),
})
  .required()
  .prefs({ convert: false, abortEarly: false, stripUnknown: true });

const disbursementSchema = Joi.object<DisbursementRequestBody>({
  partner_reference: Joi.string().min(1).max(128).required(),
  msisdn: Joi.string()
    .pattern(/^\+?\d{6,15}$/)
    .required(),
  amount: Joi.number().positive().precision(2).max(1e12).required(),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .required(),
  reason: Joi.string().max(255).allow(null, '').default(null),
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
    res.status(201).json({
      session_id: outcome.push.sessionId,
      state: outcome.push.state,
      // A one-time-code payment: the customer dials the USSD code and types the code it gives on the merchant's page.
      ...(requiresOneTimeCode(outcome.push.msisdn) ? { customer_action: { type: 'OTP', ussd: OTP_USSD } } : {}),
    });
  });

  // The customer's one-time code for a payment waiting for it: 202 taken (a wrong code cancels the payment, told
  // by its callback like any result), 400 not 4-8 digits, 404 unknown, 409 not waiting for a code (decided, or no OTP).
  router.post('/payments/:reference/otp', (req, res) => {
    const code = (req.body as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string' || !ONE_TIME_CODE.test(code)) {
      res.status(400).json({ error: 'invalid_request', message: 'code must be 4 to 8 digits' });
      return;
    }
    const outcome = deps.engine.submitCode(req.params.reference, code);
    if (outcome.kind === 'unknown') {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    if (outcome.kind === 'not-awaiting') {
      res.status(409).json({ error: 'not_awaiting_code', state: outcome.push.state });
      return;
    }
    res.status(202).json({ partner_reference: outcome.push.partnerReference, state: outcome.push.state });
  });

  router.get('/payments/:reference', (req, res) => {
    const push = deps.store.get(req.params.reference);
    const body = push && plantedPayment(push, deps.plants.on(pushKey(push)));
    if (!body) {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    res.json(body);
  });

  router.post('/refunds', (req, res) => {
    const { value, error } = refundSchema.validate(req.body);
    if (error) {
      res.status(400).json({ error: 'invalid_request', message: error.message });
      return;
    }
    const outcome = deps.refunds.refund(value);
    if (outcome.kind === 'hang') {
      hang(res, deps);
      return;
    }
    if (outcome.kind === 'invalid') {
      res.status(400).json({ error: 'invalid_request', message: outcome.message });
      return;
    }
    if (outcome.replayed) res.set('Idempotent-Replayed', 'true');
    res.status(outcome.record.answer.status).json(outcome.record.answer.body);
  });

  router.get('/refunds/:reference', (req, res) => {
    const record = deps.refunds.get(req.params.reference);
    const answer = record && plantedRefund(record, deps.plants.on(refundKey(record)));
    if (!answer) {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    res.status(answer.status).json(answer.body);
  });

  router.post('/disbursements', (req, res) => {
    const { value, error } = disbursementSchema.validate(req.body);
    if (error) {
      res.status(400).json({ error: 'invalid_request', message: error.message });
      return;
    }
    const outcome = deps.disbursements.disburse(value);
    if (outcome.replayed) res.set('Idempotent-Replayed', 'true');
    res.status(200).json(outcome.record.answer);
  });

  router.get('/disbursements/:reference', (req, res) => {
    const record = deps.disbursements.get(req.params.reference);
    const answer = record && plantedDisbursement(record, deps.plants.on(disbursementKey(record)));
    if (!answer) {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    res.json(answer);
  });

  router.use(
    transactionsRouter({
      lines: () => simulatorLines(deps.store, deps.refunds, deps.disbursements),
      plants: deps.plants,
      pageSize: deps.transactionsPageSize,
    }),
  );

  return router;
}

/**
 * The operator's timeout (a push from an 08 number, or a refund the sandbox made hang): nothing is registered
 * and the answer only comes after the caller has given up.
 */
function hang(res: Response, deps: OperatorApiDeps): void {
  const timer = deps.timers.after(deps.hangMs, () => {
    if (!res.headersSent) res.status(504).json({ error: 'upstream_timeout' });
  });
  res.on('close', () => deps.timers.cancel(timer));
}

function requireBearer(token: string): RequestHandler {
  return (req, res, next) => {
    if (sameSecret(req.get('authorization') ?? '', `Bearer ${token}`)) {
      next();
      return;
    }
    res.status(401).json({ error: 'unauthorized' });
  };
}
