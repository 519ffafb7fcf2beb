import { Router, type Request, type Response } from 'express';
import { renderPhonePage } from '../phone-page.js';
import type { PushEngine } from '../push-engine.js';
import type { PushStore } from '../push-store.js';
import type { RefundBook } from '../refund-book.js';

export interface SandboxDeps {
  engine: PushEngine;
  store: PushStore;
  refunds: RefundBook;
}

/** Sandbox-only routes, no token: the virtual phone and the test hooks a real operator would not have. */
export function sandboxRouter(deps: SandboxDeps): Router {
  const router = Router();

  const answer = (verb: 'confirm' | 'decline') => (req: Request<{ reference: string }>, res: Response) => {
    const outcome = deps.engine.answer(req.params.reference, verb);
    if (outcome.kind === 'unknown') {
      res.status(404).json({ error: 'not_found' });
    } else if (req.query.then === 'phone') {
      // A form on the phone page: back to the page whatever happened, the list shows the result.
      res.redirect(303, '/phone');
    } else if (outcome.kind === 'not-pending') {
      res.status(409).json({ error: 'not_pending', state: outcome.push.state });
    } else {
      res.json({ partner_reference: outcome.push.partnerReference, state: outcome.push.state, txn_status: outcome.push.txn_status, provider_tx_id: outcome.push.provider_tx_id });
    }
  };
  router.post('/sandbox/payments/:reference/confirm', answer('confirm'));
  router.post('/sandbox/payments/:reference/decline', answer('decline'));

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
        created_at: p.createdAt.toISOString(),
      })),
    });
  });

  // Refunds of this cash-in get no answer for hangMs, then 504 (the operator timing out); DELETE ends it.
  const hangRefunds = (hang: boolean) => (req: Request<{ reference: string }>, res: Response) => {
    if (deps.refunds.setHanging(req.params.reference, hang)) res.json({ partner_reference: req.params.reference, hang_refunds: hang });
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

  router.get('/phone', (_req, res) => {
    res.type('html').send(renderPhonePage(deps.store.list()));
  });

  return router;
}
