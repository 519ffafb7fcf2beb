import { IN_MEMORY, type RecordJournal, RecordMap, type TimerSet } from '@mm/fake-operator';
import { waveId } from './ids.js';
import { checkoutScript, type CheckoutScript } from './outcomes.js';

export type CheckoutStatus = 'open' | 'complete' | 'expired';
export type PaymentStatus = 'processing' | 'cancelled' | 'succeeded';
export type CheckoutEventType = 'checkout.session.completed' | 'checkout.session.payment_failed';

export interface MockSession {
  id: string;
  amount: string;
  currency: string;
  checkout_status: CheckoutStatus;
  payment_status: PaymentStatus;
  transaction_id: string | null;
  client_reference: string | null;
  last_payment_error: { code: string; message: string } | null;
  success_url: string;
  error_url: string;
  restrict_payer_mobile: string | null;
  wave_launch_url: string;
  createdMs: number;
  expiresMs: number;
  completedMs: number | null;
  /** How many times the money went back to the customer: a repeated refund must leave it at 1. */
  refundsPaid: number;
  /** When it was refunded, and the refund's own transaction id (Wave's list shows it as a transaction of its own). */
  refundedMs: number | null;
  refundTransactionId: string | null;
  script: CheckoutScript;
}

export interface SessionBookOptions {
  timers: TimerSet;
  now: () => number;
  sessionLifetimeMs: number;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  /** Applies scripted outcomes on their own, as if the customer paid in the Wave app. */
  autoPay: boolean;
  /** Sends the event; returns ms the state change must wait for (a webhook sent ahead of the status). */
  announce(type: CheckoutEventType, session: Record<string, unknown>): number;
  /** Where the sessions are kept (in memory by default). */
  journal?: RecordJournal;
}

/** Wave's checkout sessions as the mock keeps them; the wire view is `view()`. */
export class SessionBook {
  /** Kept in the journal: a restart keeps them (an automatic payment due then does not happen: its timer is gone). */
  private readonly sessions: RecordMap<MockSession>;

  constructor(private readonly o: SessionBookOptions) {
    this.sessions = new RecordMap<MockSession>(o.journal ?? IN_MEMORY, 'session');
  }

  create(
    fields: Pick<
      MockSession,
      'amount' | 'currency' | 'client_reference' | 'success_url' | 'error_url' | 'restrict_payer_mobile'
    >,
    launchBase: string,
  ): MockSession {
    const id = waveId('cos-');
    const now = this.o.now();
    const s: MockSession = {
      ...fields,
      id,
      checkout_status: 'open',
      payment_status: 'processing',
      transaction_id: null,
      last_payment_error: null,
      wave_launch_url: `${launchBase}/c/${id}`,
      createdMs: now,
      expiresMs: now + this.o.sessionLifetimeMs,
      completedMs: null,
      refundsPaid: 0,
      refundedMs: null,
      refundTransactionId: null,
      script: checkoutScript(fields.restrict_payer_mobile),
    };
    this.sessions.set(id, s);
    if (this.o.autoPay) this.schedule(s);
    return s;
  }

  get(id: string): MockSession | undefined {
    const s = this.sessions.get(id);
    if (s) this.expireIfDue(s);
    return s;
  }

  /** Every session, in creation order (those due to expire read expired). */
  all(): MockSession[] {
    return this.sessions.values().map((s) => (this.expireIfDue(s), s));
  }

  search(reference: string): MockSession[] {
    return this.sessions
      .values()
      .filter((s) => s.client_reference === reference)
      .map((s) => (this.expireIfDue(s), s));
  }

  /** The customer presses Pay on the launch page: the scripted outcome, at once; 06 never confirms. */
  payNow(s: MockSession): 'success' | 'error' {
    const { script } = s;
    if (script.kind === 'succeed') {
      this.succeed(s);
      return 'success';
    }
    if (script.kind === 'fail') this.fail(s, script.code, script.message);
    else if (script.kind === 'abandon') this.abandon(s);
    return 'error';
  }

  succeed(s: MockSession): void {
    if (s.checkout_status !== 'open') return;
    this.decide(s, 'checkout.session.completed', (x) => {
      x.checkout_status = 'complete';
      x.payment_status = 'succeeded';
      x.transaction_id = waveId('T_', 12).toUpperCase();
      x.last_payment_error = null;
      x.completedMs = this.o.now();
    });
  }

  /** A failed attempt: Wave leaves the session open (the customer may try again) and says why. */
  fail(s: MockSession, code: string, message: string): void {
    if (s.checkout_status !== 'open') return;
    this.decide(s, 'checkout.session.payment_failed', (x) => {
      x.last_payment_error = { code, message };
    });
  }

  /** The customer gave up: the session ends without a payment (no event: Wave has no expiry event). */
  abandon(s: MockSession): void {
    if (s.checkout_status !== 'open') return;
    this.close(s);
  }

  /** POST /:id/refund of a succeeded session: idempotent, a repeat gives nothing more back. */
  refund(s: MockSession): void {
    if (s.refundsPaid > 0) return;
    this.save(
      Object.assign(s, {
        refundsPaid: 1,
        refundedMs: this.o.now(),
        refundTransactionId: waveId('T_', 12).toUpperCase(),
      }),
    );
  }

  /** POST /:id/expire: only an open session can be expired. */
  expire(s: MockSession): boolean {
    if (s.checkout_status !== 'open') return false;
    this.close(s);
    return true;
  }

  expireNow(s: MockSession): void {
    s.expiresMs = this.o.now();
    this.save(s);
    this.expireIfDue(s);
  }

  view(s: MockSession): Record<string, unknown> {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      id: s.id,
      amount: s.amount,
      currency: s.currency,
      business_name: 'Mock Business',
      checkout_status: s.checkout_status,
      payment_status: s.payment_status,
      transaction_id: s.transaction_id,
      client_reference: s.client_reference,
      last_payment_error: s.last_payment_error,
      success_url: s.success_url,
      error_url: s.error_url,
      restrict_payer_mobile: s.restrict_payer_mobile,
      aggregated_merchant_id: null,
      wave_launch_url: s.wave_launch_url,
      when_created: iso(s.createdMs),
      when_expires: iso(s.expiresMs),
      when_completed: iso(s.completedMs),
    };
  }

  private schedule(s: MockSession): void {
    const { script } = s;
    const { timers, outcomeDelayMs, lateConfirmDelayMs } = this.o;
    if (script.kind === 'succeed')
      timers.after(script.late ? lateConfirmDelayMs : outcomeDelayMs, () => this.succeed(s));
    else if (script.kind === 'fail') timers.after(outcomeDelayMs, () => this.fail(s, script.code, script.message));
    else if (script.kind === 'abandon') timers.after(outcomeDelayMs, () => this.abandon(s));
  }

  private close(s: MockSession): void {
    s.checkout_status = 'expired';
    s.payment_status = 'cancelled';
    s.completedMs = this.o.now();
    this.save(s);
  }

  private save(s: MockSession): void {
    this.sessions.set(s.id, s);
  }

  private expireIfDue(s: MockSession): void {
    if (s.checkout_status === 'open' && this.o.now() >= s.expiresMs) this.close(s);
  }

  /** The event carries the session as it is after the change; a webhook fault may send it before the change lands. */
  private decide(s: MockSession, type: CheckoutEventType, change: (s: MockSession) => void): void {
    const after = { ...s };
    change(after);
    const leadMs = this.o.announce(type, this.view(after));
    if (leadMs > 0) this.o.timers.after(leadMs, () => this.save(Object.assign(s, after)));
    else this.save(Object.assign(s, after));
  }
}
