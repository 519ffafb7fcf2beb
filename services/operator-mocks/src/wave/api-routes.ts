import express, { type Request, type RequestHandler, type Router } from 'express';
import Joi from 'joi';
import { dayOf, isDay, type Plants, type TimerSet } from '@mm/fake-operator';
import { faultGate, reply, waveError, type FaultQueue, type WaveOperation } from './faults.js';
import { checkoutScript } from './outcomes.js';
import type { MockPayout, PayoutBook } from './payout-book.js';
import type { MockSession, SessionBook } from './session-book.js';
import { payoutKey, plantedPayout, plantedSession, sessionKey, waveStatementLines } from './statement.js';
import { balanceAnswer, transactionsAnswer, type TransactionsListOptions } from './transactions-list.js';

export interface ApiDeps {
  sessions: SessionBook;
  payouts: PayoutBook;
  faults: FaultQueue;
  timers: TimerSet;
  auth: { apiKey: string; revoked: boolean };
  /** Where the launch page is served; by default the host the request came to. */
  publicUrl: string | null;
  /** Differences planted in Wave's books (../statement.ts): its status reads and its list tell them. */
  plants: Plants;
  transactions: TransactionsListOptions;
  now: () => number;
}

/** Wave keys read `wave_<country>_<env>_<secret>`; clients check the `wave_` form before sending. */
const KEY_FORM = /^wave_[A-Za-z0-9]+_[A-Za-z0-9]+_[A-Za-z0-9_-]+$/;

/** The 401 codes of Wave's error list (missing-auth-header, invalid-auth, no-matching-api-key, api-key-revoked). */
function bearerAuth(auth: ApiDeps['auth']): RequestHandler {
  return (req, res, next) => {
    const header = req.get('authorization');
    if (!header) return waveError(res, 401, 'missing-auth-header', 'Your request should include an HTTP auth header.');
    const m = /^Bearer (\S+)$/.exec(header);
    if (!m || !KEY_FORM.test(m[1]!))
      return waveError(res, 401, 'invalid-auth', "Your HTTP auth header can't be processed.");
    if (m[1] !== auth.apiKey)
      return waveError(res, 401, 'no-matching-api-key', "The key you provided doesn't exist in our system.");
    if (auth.revoked) return waveError(res, 401, 'api-key-revoked', 'Your API key has been revoked.');
    next();
  };
}

const amount = Joi.string()
  .pattern(/^\d+(\.\d{1,2})?$/)
  .required();
const e164 = Joi.string().pattern(/^\+\d{8,15}$/);
const checkoutSchema = Joi.object({
  amount,
  currency: Joi.string().valid('XOF', 'GMD', 'UGX', 'USD').required(),
  success_url: Joi.string().uri().required(),
  error_url: Joi.string().uri().required(),
  client_reference: Joi.string().max(255),
  restrict_payer_mobile: e164,
  aggregated_merchant_id: Joi.string(),
}).unknown(false);
const payoutSchema = Joi.object({
  currency: Joi.string().required(),
  receive_amount: amount,
  mobile: e164.required(),
  name: Joi.string(),
  national_id: Joi.string(),
  payment_reason: Joi.string().allow('').max(40),
  client_reference: Joi.string().max(255),
  aggregated_merchant_id: Joi.string(),
}).unknown(false);

/** Wave's request-validation-error, details in its `{loc, msg, type}` form. */
function invalid(req: Request, schema: Joi.ObjectSchema): { details: unknown[] } | null {
  const { error } = schema.validate(req.body ?? {}, { abortEarly: false, convert: false });
  return error
    ? { details: error.details.map((d) => ({ loc: ['body', ...d.path], msg: d.message, type: d.type })) }
    : null;
}

export function waveApiRouter(d: ApiDeps): Router {
  const r = express.Router();
  const gate = (op: WaveOperation) => faultGate(d.faults, d.timers, op);
  r.use('/v1', bearerAuth(d.auth));
  // What a status read shows: the session or payout as Wave's books tell it (null: planted away).
  const shown = (s: MockSession) => plantedSession(d.sessions.view(s), s, d.plants.on(sessionKey(s)));
  const shownPayout = (p: MockPayout) => plantedPayout(p, d.plants.on(payoutKey(p)));

  r.post('/v1/checkout/sessions', gate('createSession'), (req, res) => {
    const bad = invalid(req, checkoutSchema);
    if (bad) return waveError(res, 400, 'request-validation-error', 'Request validation error', bad.details);
    const b = req.body as Record<string, string>;
    if (b.currency === 'XOF' && b.amount!.includes('.')) {
      return waveError(res, 400, 'request-validation-error', 'Request validation error', [
        { loc: ['body', 'amount'], msg: 'XOF amounts have no decimals' },
      ]);
    }
    // 07: refused at once (the payer's number cannot pay: Wave validates restrict_payer_mobile).
    if (b.restrict_payer_mobile && checkoutScript(b.restrict_payer_mobile).kind === 'refuse') {
      return waveError(res, 400, 'request-validation-error', 'Request validation error', [
        { loc: ['body', 'restrict_payer_mobile'], msg: 'not a payable Wave account' },
      ]);
    }
    const base = d.publicUrl ?? `${req.protocol}://${req.get('host')}`;
    const s = d.sessions.create(
      {
        amount: b.amount!,
        currency: b.currency!,
        client_reference: b.client_reference ?? null,
        success_url: b.success_url!,
        error_url: b.error_url!,
        restrict_payer_mobile: b.restrict_payer_mobile ?? null,
      },
      base,
    );
    reply(res, 200, d.sessions.view(s));
  });

  r.get('/v1/checkout/sessions/search', gate('searchSessions'), (req, res) => {
    const ref = req.query.client_reference;
    if (typeof ref !== 'string' || !ref)
      return waveError(res, 400, 'request-validation-error', 'Request validation error', [
        { loc: ['query', 'client_reference'], msg: 'field required' },
      ]);
    reply(res, 200, {
      result: d.sessions
        .search(ref)
        .map(shown)
        .filter((v) => v !== null),
    });
  });

  const notFound = (res: express.Response) =>
    waveError(res, 404, 'checkout-session-not-found', 'Checkout session not found.');
  r.get('/v1/checkout/sessions/:id', gate('getSession'), (req, res) => {
    const s = d.sessions.get(String(req.params.id));
    const view = s && shown(s);
    return view ? reply(res, 200, view) : notFound(res);
  });

  r.post('/v1/checkout/sessions/:id/expire', gate('expireSession'), (req, res) => {
    const s = d.sessions.get(String(req.params.id));
    if (!s) return notFound(res);
    // 200 empty when it was open; 409 when already complete or expired.
    if (!d.sessions.expire(s))
      return waveError(res, 409, 'checkout-session-not-open', 'The checkout session is not open.');
    reply(res, 200);
  });

  r.post('/v1/checkout/sessions/:id/refund', gate('refundSession'), (req, res) => {
    const s = d.sessions.get(String(req.params.id));
    if (!s) return notFound(res);
    if (s.payment_status !== 'succeeded')
      return waveError(res, 400, 'checkout-refund-failed', 'Only a succeeded payment can be refunded.');
    // Idempotent: a repeat answers 200 again and gives nothing more back.
    d.sessions.refund(s);
    reply(res, 200);
  });

  r.post('/v1/payout', gate('createPayout'), (req, res) => {
    const key = req.get('idempotency-key');
    if (!key)
      return waveError(res, 400, 'request-validation-error', 'Request validation error', [
        { loc: ['header', 'Idempotency-Key'], msg: 'field required' },
      ]);
    const seen = d.payouts.remembered(key, req.body);
    if (seen === 'mismatch')
      return waveError(res, 409, 'idempotency-mismatch', 'This Idempotency-Key was used with another request.');
    if (seen) return reply(res, seen.status, seen.body);
    const bad = invalid(req, payoutSchema);
    if (bad) return waveError(res, 400, 'request-validation-error', 'Request validation error', bad.details);
    const b = req.body as Record<string, string>;
    const p = d.payouts.create({
      currency: b.currency!,
      receive_amount: b.receive_amount!,
      mobile: b.mobile!,
      name: b.name ?? null,
      payment_reason: b.payment_reason ?? null,
      client_reference: b.client_reference ?? null,
    });
    const [status, answer] = p
      ? [200, { ...p }]
      : [
          400,
          {
            code: 'request-validation-error',
            message: 'Request validation error',
            details: [{ loc: ['body', 'mobile'], msg: 'not a Wave account' }],
          },
        ];
    d.payouts.remember(key, req.body, status, answer);
    reply(res, status, answer);
  });

  r.get('/v1/payout/:id', gate('getPayout'), (req, res) => {
    const found = d.payouts.get(String(req.params.id));
    const p = found && shownPayout(found);
    return p ? reply(res, 200, p) : waveError(res, 404, 'not-found', 'Payout not found.');
  });

  r.get('/v1/payouts/search', gate('searchPayouts'), (req, res) => {
    const ref = req.query.client_reference;
    if (typeof ref !== 'string' || !ref)
      return waveError(res, 400, 'request-validation-error', 'Request validation error', [
        { loc: ['query', 'client_reference'], msg: 'field required' },
      ]);
    reply(res, 200, {
      result: d.payouts
        .search(ref)
        .map(shownPayout)
        .filter((p) => p !== null),
    });
  });

  // The Balance & Reconciliation API (docs.wave.com/balance-api), from Wave's books as they tell them (plants applied).
  const told = () =>
    d.plants.apply(waveStatementLines(d.sessions.all(), d.payouts.all(), (id) => d.payouts.transactionIdOf(id)));
  r.get('/v1/balance', gate('getBalance'), (req, res) => {
    // The wallet has no sub-accounts here: with or without them, the same balance.
    const { include_subaccounts: sub } = req.query;
    if (sub !== undefined && sub !== 'true' && sub !== 'false') {
      return waveError(res, 400, 'request-validation-error', 'Request validation error', [
        { loc: ['query', 'include_subaccounts'], msg: 'a boolean' },
      ]);
    }
    reply(res, 200, balanceAnswer(told(), d.transactions));
  });

  // Its list: the day's executed transactions, a cursor.
  r.get('/v1/transactions', gate('listTransactions'), (req, res) => {
    const { date = dayOf(d.now()), after } = req.query;
    if (!isDay(date))
      return waveError(res, 400, 'request-validation-error', 'Request validation error', [
        { loc: ['query', 'date'], msg: 'a date, YYYY-MM-DD' },
      ]);
    const answer = transactionsAnswer(
      told(),
      date,
      typeof after === 'string' && after !== '' ? after : null,
      d.transactions,
    );
    if (!answer)
      return waveError(res, 400, 'request-validation-error', 'Request validation error', [
        { loc: ['query', 'after'], msg: 'not a cursor of this list' },
      ]);
    reply(res, 200, answer);
  });
  return r;
}
