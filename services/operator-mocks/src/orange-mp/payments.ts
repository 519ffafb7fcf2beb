import { randomBytes } from 'node:crypto';
import { IN_MEMORY, type RecordJournal, RecordMap, type TimerSet } from '@mm/fake-operator';
import type { Notifier } from '../orange-shared/notifier.js';
import { ORANGE_CAUSES, scriptedOutcome } from '../orange-shared/outcomes.js';

export type MpStatus = 'INITIATED' | 'PENDING' | 'SUCCESSFULL' | 'FAILED' | 'EXPIRED' | 'CANCELLED';

/** A payment as Orange's mp API shows it (field names from karibu-cap's ProviderCashInResponse). */
export interface MpPayment {
  id: number;
  createtime: string;
  subscriberMsisdn: string | null;
  amount: string | null;
  payToken: string;
  txnid: string | null;
  txnmode: string | null;
  inittxnmessage: string | null;
  inittxnstatus: string | null;
  confirmtxnstatus: string | null;
  confirmtxnmessage: string | null;
  status: MpStatus;
  notifUrl: string | null;
  description: string | null;
  channelUserMsisdn: string | null;
  orderId: string | null;
}

export interface PayRequest {
  subscriberMsisdn: string;
  channelUserMsisdn: string;
  amount: string;
  orderId: string;
  description: string;
  notifUrl: string;
  payToken: string;
}

export type PayAnswer = { status: 200 | 417; message: string; data: MpPayment | null };

export interface MpPaymentsOptions {
  timers: TimerSet;
  notifier: Notifier;
  payTokenLifetimeMs: number;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  /** The same number and amount again within this window is FAILED (CinetPay 606, operators-reference.md). */
  duplicateWindowMs: number;
  now: () => number;
  /** Where the pay tokens and their payments are kept (in memory by default). */
  journal?: RecordJournal;
}

/** Pay tokens and the payments made with them; decides each by the scripted outcome of its number. */
export class MpPayments {
  /** Kept in the journal: a restart keeps them (one in progress then stays as it was: its timers are gone). */
  private readonly byToken: RecordMap<MpPayment>;
  private readonly paidAt: { msisdn: string; amount: string; at: number }[] = [];
  private nextId = 75742131;
  /** Notifications go out this long before the status query shows the change (a callback ahead of the status). */
  statusLagMs = 0;

  constructor(private readonly o: MpPaymentsOptions) {
    this.byToken = new RecordMap<MpPayment>(o.journal ?? IN_MEMORY, 'payment');
    for (const p of this.byToken.values()) this.nextId = Math.max(this.nextId, p.id + 1);
  }

  get(payToken: string): MpPayment | undefined {
    return this.byToken.get(payToken);
  }

  /** Every pay token, in the order init gave them. */
  all(): MpPayment[] {
    return this.byToken.values();
  }

  /** Payments Orange took for an orderId (a correct client never makes more than one). */
  paysFor(orderId: string): number {
    return this.byToken.values().filter((p) => p.orderId === orderId).length;
  }

  init(): MpPayment {
    const stamp = new Date(this.o.now()).toISOString().slice(2, 10).replace(/-/g, '');
    const payment: MpPayment = {
      id: this.nextId++,
      createtime: String(Math.floor(this.o.now() / 1000)),
      subscriberMsisdn: null,
      amount: null,
      payToken: `MP${stamp}${randomBytes(7).toString('hex').toUpperCase()}`,
      txnid: null,
      txnmode: null,
      inittxnmessage: null,
      inittxnstatus: null,
      confirmtxnstatus: null,
      confirmtxnmessage: null,
      status: 'INITIATED',
      notifUrl: null,
      description: null,
      channelUserMsisdn: null,
      orderId: null,
    };
    this.byToken.set(payment.payToken, payment);
    // A pay token lives payTokenLifetimeMs, paid or not: then it is EXPIRED and refused for paying.
    this.o.timers.after(this.o.payTokenLifetimeMs, () => this.expire(payment));
    return payment;
  }

  pay(req: PayRequest): PayAnswer {
    const p = this.byToken.get(req.payToken);
    if (!p) return { status: 417, message: 'payToken introuvable', data: null };
    if (p.status === 'EXPIRED' && p.subscriberMsisdn === null)
      return { status: 417, message: 'Le payToken a expire', data: p };
    if (p.status !== 'INITIATED') return { status: 417, message: 'Ce payToken a deja ete utilise', data: p };
    const outcome = scriptedOutcome(req.subscriberMsisdn);
    const duplicate = this.paidAt.some(
      (d) =>
        d.msisdn === req.subscriberMsisdn && d.amount === req.amount && this.o.now() - d.at < this.o.duplicateWindowMs,
    );
    this.paidAt.push({ msisdn: req.subscriberMsisdn, amount: req.amount, at: this.o.now() });
    this.save(
      Object.assign(p, {
        subscriberMsisdn: req.subscriberMsisdn,
        amount: req.amount,
        orderId: req.orderId,
        description: req.description,
        notifUrl: req.notifUrl,
        channelUserMsisdn: req.channelUserMsisdn,
        txnmode: req.orderId,
        inittxnstatus: '200',
        inittxnmessage: 'Paiement en attente de confirmation',
        status: 'PENDING',
      }),
    );
    if (!duplicate && (outcome === 'insufficient' || outcome === 'limit')) {
      // Refused at once, with Orange's code (karibu-cap's TS library: 417, "60019 :: ...").
      const cause = ORANGE_CAUSES[outcome];
      this.save(Object.assign(p, { status: 'FAILED', inittxnstatus: cause.code, inittxnmessage: cause.text }));
      return { status: 417, message: `${cause.code} :: ${cause.text}`, data: p };
    }
    if (!duplicate && outcome === 'refused') {
      this.save(
        Object.assign(p, { status: 'FAILED', inittxnstatus: null, inittxnmessage: 'Beneficiaire introuvable' }),
      );
      return { status: 417, message: 'Beneficiaire introuvable', data: p };
    }
    this.schedule(p, duplicate ? 'duplicate' : outcome);
    return { status: 200, message: 'Paiement initie avec succes', data: { ...p } };
  }

  private schedule(p: MpPayment, outcome: ReturnType<typeof scriptedOutcome> | 'duplicate'): void {
    const { outcomeDelayMs: soon, lateConfirmDelayMs: late } = this.o;
    switch (outcome) {
      case 'duplicate':
        // Orange's duplicate refusal carries no cause: FAILED, like a wrong code or a low balance.
        return this.decideAfter(p, soon, { status: 'FAILED', confirmtxnstatus: null, confirmtxnmessage: null });
      case 'wrong-pin':
        return this.decideAfter(p, soon, {
          status: 'FAILED',
          confirmtxnstatus: ORANGE_CAUSES['wrong-pin'].code,
          confirmtxnmessage: ORANGE_CAUSES['wrong-pin'].text,
        });
      case 'declined':
        return this.decideAfter(p, soon, {
          status: 'CANCELLED',
          confirmtxnmessage: 'Transaction annulee par le client',
        });
      case 'never':
        return; // stays PENDING until its pay token expires
      case 'late':
        return this.decideAfter(p, late, this.success());
      default:
        return this.decideAfter(p, soon, this.success());
    }
  }

  private success(): Partial<MpPayment> {
    return {
      status: 'SUCCESSFULL',
      txnid: `MP${randomBytes(5).toString('hex').toUpperCase()}`,
      confirmtxnstatus: '200',
      confirmtxnmessage: 'Paiement effectue avec succes',
    };
  }

  private decideAfter(p: MpPayment, ms: number, change: Partial<MpPayment>): void {
    this.o.timers.after(ms, () => {
      if (p.status === 'PENDING') this.apply(p, change);
    });
  }

  private expire(p: MpPayment): void {
    if (p.status === 'INITIATED' || p.status === 'PENDING') this.apply(p, { status: 'EXPIRED' });
  }

  /** Notifies first; the status query shows the change statusLagMs later (0: at once). */
  private apply(p: MpPayment, change: Partial<MpPayment>): void {
    const next = { ...p, ...change };
    if (p.notifUrl)
      this.o.notifier.notify(p.notifUrl, {
        payToken: p.payToken,
        status: next.status,
        txnid: next.txnid,
        message: next.confirmtxnmessage,
      });
    if (this.statusLagMs > 0) this.o.timers.after(this.statusLagMs, () => this.save(Object.assign(p, change)));
    else this.save(Object.assign(p, change));
  }

  private save(p: MpPayment): void {
    this.byToken.set(p.payToken, p);
  }
}
