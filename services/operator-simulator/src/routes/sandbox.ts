import express, { Router, type Request, type Response } from 'express';
import type { DisbursementBook } from '../disbursement-book.js';
import { parsePhoneNumber, renderNumberPage, renderPhoneError, renderPhonePage, SECRET_CODE } from '../phone-page.js';
import type { PersonAnswer, PushEngine } from '../push-engine.js';
import { WRONG_SECRET_CODE } from '../scenarios.js';
import type { PushStore } from '../push-store.js';
import type { RefundBook } from '../refund-book.js';

export interface SandboxDeps {
  engine: PushEngine;
  store: PushStore;
  refunds: RefundBook;
  disbursements: DisbursementBook;
}

/** Sandbox-only routes, behind the sandbox token (sandbox-auth.ts): the virtual phone and the test hooks a real operator would not have. */
export function sandboxRouter(deps: SandboxDeps): Router {
  const router = Router();

  /** Where a phone page form goes back to: the number's page when it came from one, else the listing. */
  const phoneTarget = (req: Request) => {
    const msisdn = typeof req.query.msisdn === 'string' ? parsePhoneNumber(req.query.msisdn) : null;
    return msisdn ? `/phone?msisdn=${encodeURIComponent(msisdn)}` : '/phone';
  };

  /**
   * confirm may carry the secret code typed on the phone (`code`, JSON or form): any 4 digits confirm, 0000 is
   * a wrong code. Without a code it confirms, as before.
   */
  const personAnswer = (verb: 'confirm' | 'decline', body: unknown): PersonAnswer | 'invalid-code' => {
    if (verb === 'decline') return 'decline';
    const code = (body as { code?: unknown } | undefined)?.code;
    if (code === undefined) return 'confirm';
    if (typeof code !== 'string' || !SECRET_CODE.test(code)) return 'invalid-code';
    return code === WRONG_SECRET_CODE ? 'wrong-code' : 'confirm';
  };

  const answer = (verb: 'confirm' | 'decline') => (req: Request<{ reference: string }>, res: Response) => {
    const fromPhone = req.query.then === 'phone';
    const kind = personAnswer(verb, req.body);
    if (kind === 'invalid-code') {
      if (fromPhone)
        res
          .status(400)
          .type('html')
          .send(
            renderPhoneError(
              'The secret code is 4 digits.',
              typeof req.query.msisdn === 'string' ? req.query.msisdn : '',
            ),
          );
      else res.status(400).json({ error: 'invalid_request', message: 'code must be 4 digits' });
      return;
    }
    const outcome = deps.engine.answer(req.params.reference, kind);
    if (outcome.kind === 'unknown') {
      res.status(404).json({ error: 'not_found' });
    } else if (fromPhone) {
      // A form on the phone page: back to the page whatever happened, the page shows the result.
      res.redirect(303, phoneTarget(req));
    } else if (outcome.kind === 'not-pending') {
      res.status(409).json({ error: 'not_pending', state: outcome.push.state });
    } else {
      res.json({
        partner_reference: outcome.push.partnerReference,
        state: outcome.push.state,
        txn_status: outcome.push.txn_status,
        provider_tx_id: outcome.push.provider_tx_id,
      });
    }
  };
  const form = express.urlencoded({ extended: false, limit: '2kb' });
  router.post('/sandbox/payments/:reference/confirm', form, answer('confirm'));
  router.post('/sandbox/payments/:reference/decline', form, answer('decline'));

  router.post('/sandbox/payments/:reference/resend-callback', (req, res) => {
    const result = deps.engine.resendCallback(req.params.reference);
    if (result === 'unknown') res.status(404).json({ error: 'not_found' });
    else if (result === 'no-callback') res.status(409).json({ error: 'no_callback_yet' });
    else res.status(202).json({ resent: true });
  });

  router.get('/sandbox/pushes', (_req, res) => {
    res.json({
      pushes: deps.store.list().map((p) => ({
        partner_reference: p.partnerReference,
        session_id: p.sessionId,
        msisdn: p.msisdn,
        amount: p.amount,
        currency: p.currency,
        motif: p.motif,
        state: p.state,
        txn_status: p.txn_status,
        provider_tx_id: p.provider_tx_id,
        failure_reason: p.failure_reason,
        push_count: deps.store.pushCount(p.partnerReference),
        request_count: deps.store.requestCount(p.partnerReference),
        created_at: p.createdAt.toISOString(),
        decided_at: p.decidedAt?.toISOString() ?? null,
      })),
    });
  });

  // Refunds of this cash-in get no answer for hangMs, then 504 (the operator timing out); DELETE ends it.
  const hangRefunds = (hang: boolean) => (req: Request<{ reference: string }>, res: Response) => {
    if (deps.refunds.setHanging(req.params.reference, hang))
      res.json({ partner_reference: req.params.reference, hang_refunds: hang });
    else res.status(404).json({ error: 'not_found' });
  };
  router.post('/sandbox/payments/:reference/hang-refunds', hangRefunds(true));
  router.delete('/sandbox/payments/:reference/hang-refunds', hangRefunds(false));

  router.get('/sandbox/refunds', (_req, res) => {
    res.json({
      refunds: deps.refunds.list().map((r) => ({
        partner_reference: r.partnerReference,
        original_partner_reference: r.originalPartnerReference,
        amount: r.amount,
        currency: r.currency,
        status: r.answer.status,
        answer: r.answer.body,
        refund_count: deps.refunds.refundCount(r.partnerReference),
        original_refunded_amount: deps.refunds.refundedAmount(r.originalPartnerReference),
        created_at: r.createdAt.toISOString(),
      })),
    });
  });

  router.get('/sandbox/disbursements', (_req, res) => {
    res.json({
      disbursements: deps.disbursements.list().map((d) => ({
        partner_reference: d.partnerReference,
        msisdn: d.msisdn,
        amount: d.amount,
        currency: d.currency,
        reason: d.reason,
        answer: d.answer,
        disbursement_count: deps.disbursements.disbursementCount(d.partnerReference),
        created_at: d.createdAt.toISOString(),
      })),
    });
  });

  // GET /phone?msisdn=+225...: that number's screen; without a number, every pending push.
  router.get('/phone', (req, res) => {
    const raw = req.query.msisdn;
    if (raw === undefined || raw === '') {
      res.type('html').send(renderPhonePage(deps.store.list()));
      return;
    }
    const msisdn = typeof raw === 'string' ? parsePhoneNumber(raw) : null;
    if (!msisdn) {
      res
        .status(400)
        .type('html')
        .send(
          renderPhoneError('Enter the number in E.164 form, e.g. +2250707000055.', typeof raw === 'string' ? raw : ''),
        );
      return;
    }
    res.type('html').send(renderNumberPage(deps.store.list(), msisdn));
  });

  return router;
}
