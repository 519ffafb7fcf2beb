import { randomBytes } from 'node:crypto';
import { IN_MEMORY, type RecordJournal, RecordMap, type TimerSet } from '@mm/fake-operator';
import type { Notifier } from '../orange-shared/notifier.js';
import { ORANGE_CAUSES, scriptedOutcome } from '../orange-shared/outcomes.js';

export type WebpayStatus = 'INITIATED' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'EXPIRED';

export interface WebPayment {
  payToken: string;
  notifToken: string;
  country: string;
  orderId: string;
  amount: number;
  currency: string;
  reference: string;
  returnUrl: string;
  cancelUrl: string;
  notifUrl: string;
  status: WebpayStatus;
  txnid: string | null;
  /** Only on FAILED ("60019 :: ..."): not in Orange's documented status body, see app.ts. */
  message: string | null;
  /** The number the customer paid with on the page. */
  msisdn: string | null;
  /** When it was initiated (the day of its statement line). */
  createdAtMs: number;
}

export type InitInput = Omit<
  WebPayment,
  'payToken' | 'notifToken' | 'status' | 'txnid' | 'message' | 'msisdn' | 'createdAtMs'
>;

export interface WebPaymentsOptions {
  timers: TimerSet;
  notifier: Notifier;
  /** After this, a payment not yet decided is EXPIRED (Orange: ~10 minutes). */
  sessionLifetimeMs: number;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  /** Where the payments are kept (in memory by default). */
  journal?: RecordJournal;
}

export class WebPayments {
  /** Kept in the journal: a restart keeps them (one in progress then stays as it was: its timers are gone). */
  private readonly byToken: RecordMap<WebPayment>;
  private readonly byOrder = new Map<string, WebPayment>();
  statusLagMs = 0;

  constructor(private readonly o: WebPaymentsOptions) {
    this.byToken = new RecordMap<WebPayment>(o.journal ?? IN_MEMORY, 'payment');
    for (const p of this.byToken.values()) this.byOrder.set(p.orderId, p);
  }

  get(payToken: string): WebPayment | undefined {
    return this.byToken.get(payToken);
  }

  /** Every payment, in the order they were initiated. */
  all(): WebPayment[] {
    return this.byToken.values();
  }

  /** How many payments exist for an order_id (Orange refuses a second: always 0 or 1). */
  countFor(orderId: string): number {
    return this.byOrder.has(orderId) ? 1 : 0;
  }

  /** null when the order_id was already used by this merchant. */
  init(input: InitInput): WebPayment | null {
    if (this.byOrder.has(input.orderId)) return null;
    const payment: WebPayment = {
      ...input,
      payToken: `v1${randomBytes(16).toString('hex')}`,
      notifToken: randomBytes(16).toString('hex'),
      status: 'INITIATED',
      txnid: null,
      message: null,
      msisdn: null,
      createdAtMs: Date.now(),
    };
    this.byToken.set(payment.payToken, payment);
    this.byOrder.set(payment.orderId, payment);
    this.o.timers.after(this.o.sessionLifetimeMs, () => {
      if (payment.status === 'INITIATED' || payment.status === 'PENDING')
        this.apply(payment, { status: 'EXPIRED' }, false);
    });
    return payment;
  }

  /** The customer confirms on the payment page with this number; the outcome follows its last two digits. */
  pay(p: WebPayment, msisdn: string): void {
    if (p.status !== 'INITIATED') return;
    const outcome = scriptedOutcome(msisdn);
    // 05: declining on Orange's page records nothing; the payment stays INITIATED until it expires.
    if (outcome === 'declined') return;
    this.save(
      Object.assign(p, { msisdn, status: 'PENDING', txnid: `MP${randomBytes(5).toString('hex').toUpperCase()}` }),
    );
    const fail = (message: string | null) => ({ status: 'FAILED' as const, message });
    switch (outcome) {
      case 'insufficient':
      case 'wrong-pin':
      case 'limit': {
        const cause = ORANGE_CAUSES[outcome];
        return this.decideAfter(p, this.o.outcomeDelayMs, fail(`${cause.code} :: ${cause.text}`));
      }
      case 'refused':
        return this.apply(p, fail('Transaction refusee'), true);
      case 'never':
        return; // PENDING until the session expires: EXPIRED
      case 'late':
        return this.decideAfter(p, this.o.lateConfirmDelayMs, { status: 'SUCCESS' });
      default:
        return this.decideAfter(p, this.o.outcomeDelayMs, { status: 'SUCCESS' });
    }
  }

  private decideAfter(p: WebPayment, ms: number, change: Partial<WebPayment>): void {
    this.o.timers.after(ms, () => {
      if (p.status === 'PENDING') this.apply(p, change, true);
    });
  }

  /** Orange notifies SUCCESS and FAILED only; the status query shows the change statusLagMs later. */
  private apply(p: WebPayment, change: Partial<WebPayment>, notify: boolean): void {
    if (notify)
      this.o.notifier.notify(p.notifUrl, { status: change.status, notif_token: p.notifToken, txnid: p.txnid });
    if (this.statusLagMs > 0) this.o.timers.after(this.statusLagMs, () => this.save(Object.assign(p, change)));
    else this.save(Object.assign(p, change));
  }

  private save(p: WebPayment): void {
    this.byToken.set(p.payToken, p);
  }
}
