import type { CallbackSender } from './callback-sender.js';
import type { Log, TimerSet } from '@mm/fake-operator';
import { callbackBodyOf, type Push, type PushStore } from './push-store.js';
import type { ResultCallbacks } from './result-callbacks.js';
import {
  CONFIRMED,
  DECLINED,
  requiresOneTimeCode,
  scenarioFor,
  WRONG_CODE,
  WRONG_ONE_TIME_CODE,
  type Scenario,
} from './scenarios.js';
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

export type AnswerOutcome =
  { kind: 'unknown' } | { kind: 'not-pending'; push: Push } | { kind: 'answered'; push: Push };

/** What a one-time code does: unknown payment, one not waiting for a code, a wrong code (payment canceled), or taken. */
export type CodeOutcome =
  | { kind: 'unknown' }
  | { kind: 'not-awaiting'; push: Push }
  | { kind: 'wrong'; push: Push }
  | { kind: 'accepted'; push: Push };

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
  /** References of 'late-register' pushes the operator is still processing: known to nobody yet. */
  private readonly registering = new Set<string>();

  constructor(private readonly deps: PushEngineDeps) {}

  push(body: PushRequestBody): PushOutcome {
    const { store, log } = this.deps;
    store.countRequest(body.partner_reference);
    const existing = store.get(body.partner_reference);
    // Idempotent on the reference: a retried request (ours timed out, theirs did not) must not ring the phone twice.
    if (existing)
      return { kind: existing.sessionId === null ? 'rejected' : 'accepted', push: existing, replayed: true };

    const scenario = scenarioFor(body.msisdn);
    if (scenario.kind === 'hang') {
      log('push.hanging', { partner_reference: body.partner_reference });
      return { kind: 'hang' };
    }
    if (scenario.kind === 'late-register') {
      this.registerLate(body);
      return { kind: 'hang' };
    }
    if (scenario.kind === 'rejected') {
      const push = store.create(body, scenario.result, false);
      log('push.rejected', { partner_reference: push.partnerReference });
      return { kind: 'rejected', push, replayed: false };
    }
    const push = store.create(body, { state: 'PENDING', txn_status: null, failure_reason: null }, true);
    log('push.accepted', {
      partner_reference: push.partnerReference,
      session_id: push.sessionId,
      scenario: scenario.kind,
    });
    if (requiresOneTimeCode(push.msisdn)) {
      // Nothing happens until the customer's one-time code arrives (submitCode).
      store.update(push, { awaitingCode: true });
      log('push.awaiting_code', { partner_reference: push.partnerReference });
    } else {
      this.play(push, scenario);
    }
    return { kind: 'accepted', push, replayed: false };
  }

  /**
   * The customer's one-time code (POST /v1/payments/:ref/otp). A wrong code (WRONG_ONE_TIME_CODE) cancels the
   * payment as a wrong secret code does; a right one plays the number's scenario, as a push without code would.
   */
  submitCode(partnerReference: string, code: string): CodeOutcome {
    const push = this.deps.store.get(partnerReference);
    if (!push) return { kind: 'unknown' };
    if (!push.awaitingCode || push.state !== 'PENDING') return { kind: 'not-awaiting', push };
    this.deps.store.update(push, { awaitingCode: false });
    if (code === WRONG_ONE_TIME_CODE) {
      this.deps.log('push.code_wrong', { partner_reference: partnerReference });
      return { kind: 'wrong', push: this.resolve(partnerReference, WRONG_CODE) ?? push };
    }
    this.deps.log('push.code_accepted', { partner_reference: partnerReference });
    this.play(push, scenarioFor(push.msisdn));
    return { kind: 'accepted', push };
  }

  /** The first request of a 'late-register' push starts its processing; retries meanwhile change nothing. */
  private registerLate(body: PushRequestBody): void {
    const { store, log, timers, lateConfirmDelayMs } = this.deps;
    if (this.registering.has(body.partner_reference)) return;
    this.registering.add(body.partner_reference);
    log('push.registering_late', { partner_reference: body.partner_reference, after_ms: lateConfirmDelayMs });
    timers.after(lateConfirmDelayMs, () => {
      this.registering.delete(body.partner_reference);
      if (store.get(body.partner_reference)) return;
      const push = store.create(body, { state: 'PENDING', txn_status: null, failure_reason: null }, true);
      log('push.accepted', {
        partner_reference: push.partnerReference,
        session_id: push.sessionId,
        scenario: 'late-register',
      });
      this.play(push, { kind: 'scripted', after: 'soon', result: CONFIRMED });
    });
  }

  /** A scripted outcome after its delay; 'never' and 'manual' wait (for ever, or for a person on the phone). */
  private play(push: Push, scenario: Scenario): void {
    if (scenario.kind !== 'scripted') return;
    const delay = scenario.after === 'late' ? this.deps.lateConfirmDelayMs : this.deps.outcomeDelayMs;
    this.deps.timers.after(delay, () => this.resolve(push.partnerReference, scenario.result));
  }

  /** A person's answer on the virtual phone. */
  answer(partnerReference: string, answer: PersonAnswer): AnswerOutcome {
    const push = this.deps.store.get(partnerReference);
    if (!push) return { kind: 'unknown' };
    // A one-time-code payment waits for its code: the phone has nothing to answer yet.
    if (push.awaitingCode) return { kind: 'not-pending', push };
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
    this.deps.log('push.resolved', {
      partner_reference: partnerReference,
      state: push.state,
      txn_status: push.txn_status,
    });
    this.deps.store.update(push, { lastCallback: callbackBodyOf(push) });
    this.deps.results.send(push.callbackUrl, push.lastCallback!);
    return push;
  }
}
