import { IN_MEMORY, type Log, type RecordJournal, RecordMap } from '@mm/fake-operator';
import type { PushStore } from './push-store.js';
import { refundsRejectedFor } from './scenarios.js';
import type { RefundAnswer, RefundRequestBody } from './wire.js';

export interface RefundRecord {
  partnerReference: string;
  originalPartnerReference: string;
  amount: number;
  currency: string;
  /** The answer given the first time, replayed verbatim to every repeat of partner_reference. */
  answer: RefundAnswer;
  createdAt: Date;
}

export type RefundOutcome =
  | { kind: 'answered'; record: RefundRecord; replayed: boolean }
  /** Not a refund request the operator can act on (currency other than the original's); nothing recorded. */
  | { kind: 'invalid'; message: string }
  /** The sandbox made refunds of this original hang: no answer, nothing recorded. */
  | { kind: 'hang' };

/** Amounts have at most two decimals: compared in hundredths so 0.1 + 0.2 refunds are exact. */
const cents = (amount: number) => Math.round(amount * 100);

/**
 * The operator's refunds: decided synchronously, in one call (no await between the checks and the recording),
 * so two concurrent refunds of one original can never exceed its amount. Keyed by the refund's
 * partner_reference because that is what the operator dedupes on.
 */
export class RefundBook {
  private readonly records: RecordMap<RefundRecord>;
  /** How many times each reference was really decided, kept apart so a dedupe bug would show as 2. */
  private readonly counts = new Map<string, number>();
  /** Sum of OK refunds per original, in hundredths. */
  private readonly refundedCents = new Map<string, number>();
  private readonly hanging = new Set<string>();
  private sequence = 0;

  constructor(private readonly deps: { store: PushStore; log: Log; journal?: RecordJournal }) {
    this.records = new RecordMap<RefundRecord>(deps.journal ?? IN_MEMORY, 'refund', (r) => ({
      ...r,
      createdAt: new Date(r.createdAt),
    }));
    // What was refunded before a restart still counts against each cash-in's amount.
    for (const r of this.records.values()) {
      if (r.answer.status === 200 && r.answer.body.state === 'OK')
        this.refundedCents.set(
          r.originalPartnerReference,
          (this.refundedCents.get(r.originalPartnerReference) ?? 0) + cents(r.amount),
        );
    }
    this.sequence = this.records.values().length;
  }

  get(partnerReference: string): RefundRecord | undefined {
    return this.records.get(partnerReference);
  }

  list(): RefundRecord[] {
    return this.records.values();
  }

  refundCount(partnerReference: string): number {
    return this.counts.get(partnerReference) ?? 0;
  }

  /** Sum of the OK refunds of a cash-in. */
  refundedAmount(originalPartnerReference: string): number {
    return (this.refundedCents.get(originalPartnerReference) ?? 0) / 100;
  }

  /** Sandbox hook: refunds of this original get no answer until switched off. False when the original is unknown. */
  setHanging(originalPartnerReference: string, hang: boolean): boolean {
    if (!this.deps.store.get(originalPartnerReference)) return false;
    if (hang) this.hanging.add(originalPartnerReference);
    else this.hanging.delete(originalPartnerReference);
    return true;
  }

  refund(body: RefundRequestBody): RefundOutcome {
    // Idempotent on the reference: a retried refund (our timeout, their success) must not pay twice.
    const existing = this.records.get(body.partner_reference);
    if (existing) return { kind: 'answered', record: existing, replayed: true };

    const original = this.deps.store.get(body.original_partner_reference);
    if (!original) return this.record(body, { status: 404, body: { error: 'unknown_transaction' } });
    if (this.hanging.has(original.partnerReference)) {
      this.deps.log('refund.hanging', { partner_reference: body.partner_reference });
      return { kind: 'hang' };
    }
    if (original.state !== 'OK') return this.record(body, { status: 409, body: { error: 'not_refundable' } });
    if (body.currency !== original.currency) {
      return { kind: 'invalid', message: `currency ${body.currency} is not the original's (${original.currency})` };
    }
    const refunded = this.refundedCents.get(original.partnerReference) ?? 0;
    if (refunded + cents(body.amount) > cents(original.amount)) {
      return this.record(body, { status: 200, body: { state: 'FAILED', reason: 'AMOUNT_EXCEEDS_REFUNDABLE' } });
    }
    if (refundsRejectedFor(original.msisdn)) {
      return this.record(body, { status: 200, body: { state: 'FAILED', reason: 'REFUND_REJECTED' } });
    }
    this.refundedCents.set(original.partnerReference, refunded + cents(body.amount));
    return this.record(body, { status: 200, body: { state: 'OK', refund_id: this.newRefundId() } });
  }

  private record(body: RefundRequestBody, answer: RefundAnswer): RefundOutcome {
    const record: RefundRecord = {
      partnerReference: body.partner_reference,
      originalPartnerReference: body.original_partner_reference,
      amount: body.amount,
      currency: body.currency,
      answer,
      createdAt: new Date(),
    };
    this.records.set(record.partnerReference, record);
    this.counts.set(record.partnerReference, this.refundCount(record.partnerReference) + 1);
    this.deps.log('refund.decided', {
      partner_reference: record.partnerReference,
      original_partner_reference: record.originalPartnerReference,
      status: answer.status,
      ...answer.body,
    });
    return { kind: 'answered', record, replayed: false };
  }

  /** "RF" and digits; the sequence makes it unique within this simulator's life. */
  private newRefundId(): string {
    this.sequence += 1;
    return `RF${Date.now().toString().slice(-8)}${String(this.sequence).padStart(6, '0')}`;
  }
}
