import type { CallbackSender } from './callback-sender.js';
import type { Log } from './log.js';
import { callbackBodyOf, type Push, type PushStore } from './push-store.js';
import type { ResultCallbacks } from './result-callbacks.js';
import { CONFIRMED, DECLINED, scenarioFor, WRONG_CODE } from './scenarios.js';
import type { TimerSet } from './timer-set.js';
import type { PushRequestBody, WireResult } from './wire.js';

export type PushOutcome =
  | { kind: 'accepted'; push: Push; replayed: boolean }
  | { kind: 'rejected'; push: Push; replayed: boolean }
  | { kind: 'hang' };

/** What a person does with a prompt: confirms, declines, or types a wrong secret code. */
export type PersonAnswer = 'confirm' | 'decline' | 'wrong-code';

const ANSWER_RESULTS: Readonly<Record<PersonAnswer, Omit<WireResult, 'provider_tx_id'>>> = {
  confirm: CONFIRMED,
  decline: DECLINED,
  'wrong-code': WRONG_CODE,
};

export type AnswerOutcome = { kind: 'unknown' } | { kind: 'not-pending'; push: Push } | { kind: 'answered'; push: Push };

export interface PushEngineDeps {
  store: PushStore;
  timers: TimerSet;
  /** Sends resend-callback's duplicates as asked, whatever the callback fault. */
  sender: CallbackSender;
  /** Sends each result's callback through the current callback fault. */
  results: ResultCallbacks;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  log: Log;
}

/** The operator's behaviour: registers pushes, plays the scripted outcomes, and sends a callback on each result. */
export class PushEngine {
  constructor(private readonly deps: PushEngineDeps) {}

  push(body: PushRequestBody): PushOutcome {
    const { store, timers, outcomeDelayMs, lateConfirmDelayMs, log } = this.deps;
    store.countRequest(body.partner_reference);
    const existing = store.get(body.partner_reference);
    // Idempotent on the reference: a retried request (ours timed out, theirs did not) must not ring the phone twice.
    if (existing) return { kind: existing.sessionId === null ? 'rejected' : 'accepted', push: existing, replayed: true };

    const scenario = scenarioFor(body.msisdn);
    if (scenario.kind === 'hang') {
      log('push.hanging', { partner_reference: body.partner_reference });
      return { kind: 'hang' };
    }
    if (scenario.kind === 'rejected') {
      const push = store.create(body, scenario.result, false);
      log('push.rejected', { partner_reference: push.partnerReference });
      return { kind: 'rejected', push, replayed: false };
    }
    const push = store.create(body, { state: 'PENDING', txn_status: null, failure_reason: null }, true);
    log('push.accepted', { partner_reference: push.partnerReference, session_id: push.sessionId, scenario: scenario.kind });
    if (scenario.kind === 'scripted') {
      const delay = scenario.after === 'late' ? lateConfirmDelayMs : outcomeDelayMs;
      timers.after(delay, () => this.resolve(push.partnerReference, scenario.result));
    }
    return { kind: 'accepted', push, replayed: false };
  }

  /** A person's answer on the virtual phone. */
  answer(partnerReference: string, answer: PersonAnswer): AnswerOutcome {
    const push = this.deps.store.get(partnerReference);
    if (!push) return { kind: 'unknown' };
    const resolved = this.resolve(partnerReference, ANSWER_RESULTS[answer]);
    return resolved ? { kind: 'answered', push: resolved } : { kind: 'not-pending', push };
  }

  /** Sends the last callback again, byte for byte the same result: what a duplicate delivery looks like. */
  resendCallback(partnerReference: string): 'resent' | 'unknown' | 'no-callback' {
    const push = this.deps.store.get(partnerReference);
    if (!push) return 'unknown';
    if (!push.lastCallback) return 'no-callback';
    void this.deps.sender.send(push.callbackUrl, push.lastCallback);
    return 'resent';
  }

  private resolve(partnerReference: string, result: Omit<WireResult, 'provider_tx_id'>): Push | undefined {
    const push = this.deps.store.resolve(partnerReference, result);
    if (!push) return undefined;
    this.deps.log('push.resolved', { partner_reference: partnerReference, state: push.state, txn_status: push.txn_status });
    push.lastCallback = callbackBodyOf(push);
    this.deps.results.send(push.callbackUrl, push.lastCallback);
    return push;
  }
}
