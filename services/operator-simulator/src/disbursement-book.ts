import { IN_MEMORY, type Log, type RecordJournal, RecordMap } from '@mm/fake-operator';
import { disbursementFailureFor } from './scenarios.js';
import type { DisbursementAnswer, DisbursementRequestBody } from './wire.js';

export interface DisbursementRecord {
  partnerReference: string;
  msisdn: string;
  amount: number;
  currency: string;
  reason: string | null;
  /** The answer given the first time, replayed verbatim to every repeat of partner_reference. */
  answer: DisbursementAnswer;
  createdAt: Date;
}

export interface DisbursementOutcome {
  record: DisbursementRecord;
  replayed: boolean;
}

/**
 * The operator's disbursements (cash-out): decided synchronously, in one call with no await, so two concurrent
 * requests with one reference cannot both pay. Keyed by partner_reference because that is what the operator
 * dedupes on: a retry after our timeout must not pay the customer twice.
 */
export class DisbursementBook {
  private readonly records: RecordMap<DisbursementRecord>;
  /** How many times each reference was really decided, kept apart so a dedupe bug would show as 2. */
  private readonly counts = new Map<string, number>();
  private sequence = 0;

  constructor(private readonly deps: { log: Log; journal?: RecordJournal }) {
    this.records = new RecordMap<DisbursementRecord>(deps.journal ?? IN_MEMORY, 'disbursement', (d) => ({
      ...d,
      createdAt: new Date(d.createdAt),
    }));
    this.sequence = this.records.values().length;
  }

  get(partnerReference: string): DisbursementRecord | undefined {
    return this.records.get(partnerReference);
  }

  list(): DisbursementRecord[] {
    return this.records.values();
  }

  disbursementCount(partnerReference: string): number {
    return this.counts.get(partnerReference) ?? 0;
  }

  disburse(body: DisbursementRequestBody): DisbursementOutcome {
    // A repeat answers as the first time did, even with other fields: the reference is the payment.
    const existing = this.records.get(body.partner_reference);
    if (existing) return { record: existing, replayed: true };

    const failure = disbursementFailureFor(body.msisdn);
    const answer: DisbursementAnswer = failure
      ? { state: 'FAILED', reason: failure }
      : { state: 'OK', disbursement_id: this.newDisbursementId() };
    const record: DisbursementRecord = {
      partnerReference: body.partner_reference,
      msisdn: body.msisdn,
      amount: body.amount,
      currency: body.currency,
      reason: body.reason,
      answer,
      createdAt: new Date(),
    };
    this.records.set(record.partnerReference, record);
    this.counts.set(record.partnerReference, this.disbursementCount(record.partnerReference) + 1);
    this.deps.log('disbursement.decided', {
      partner_reference: record.partnerReference,
      amount: record.amount,
      currency: record.currency,
      ...answer,
    });
    return { record, replayed: false };
  }

  /** "DB" and digits; the sequence makes it unique within this simulator's life. */
  private newDisbursementId(): string {
    this.sequence += 1;
    return `DB${Date.now().toString().slice(-8)}${String(this.sequence).padStart(6, '0')}`;
  }
}
