import { randomInt } from 'node:crypto';
import { IN_MEMORY, type RecordJournal, RecordMap, type TimerSet } from '@mm/fake-operator';
import type { MtnCallbacks } from './callbacks.js';
import type { MtnOutcome } from './outcomes.js';
import type { ResolvedMtnOptions } from './options.js';

export type MtnKind = 'requesttopay' | 'refund' | 'transfer';
export type MtnStatus = 'CREATED' | 'PENDING' | 'SUCCESSFUL' | 'FAILED';

export interface MtnRecord {
  kind: MtnKind;
  referenceId: string;
  /** The request body as received (amount, currency, externalId, payer or payee, notes, referenceIdToRefund). */
  body: Record<string, unknown>;
  status: MtnStatus;
  reason?: string;
  financialTransactionId?: string;
  callbackUrl?: string;
  /** POSTs made with this X-Reference-Id (the first created it; others got 409). */
  posts: number;
  /** When MTN created it (the day of its statement line). */
  createdAtMs: number;
}

/** The requests to pay, refunds and transfers MTN holds, by X-Reference-Id (one namespace: a reuse is a 409). */
export class MtnStore {
  /** Kept in the journal: a restart keeps them (an undecided one stays undecided: its timer is gone). */
  private readonly records: RecordMap<MtnRecord>;

  constructor(
    private readonly o: ResolvedMtnOptions,
    private readonly timers: TimerSet,
    private readonly callbacks: MtnCallbacks,
    journal: RecordJournal = IN_MEMORY,
  ) {
    this.records = new RecordMap<MtnRecord>(journal, 'record');
  }

  /** Seen before: counted and returned (the route answers 409). */
  existing(referenceId: string): MtnRecord | undefined {
    const record = this.records.get(referenceId);
    if (record) {
      record.posts += 1;
      this.records.set(referenceId, record);
    }
    return record;
  }

  create(
    kind: MtnKind,
    referenceId: string,
    body: Record<string, unknown>,
    outcome: MtnOutcome,
    callbackUrl?: string,
  ): MtnRecord {
    const record: MtnRecord = {
      kind,
      referenceId,
      body,
      status: outcome.initial ?? 'PENDING',
      posts: 1,
      createdAtMs: Date.now(),
      ...(callbackUrl ? { callbackUrl } : {}),
    };
    this.records.set(referenceId, record);
    const final = outcome.final;
    if (final) this.timers.after(final.afterMs, () => this.decide(record, final.status, final.reason));
    return record;
  }

  /** Any record by its X-Reference-Id, without counting a POST (tests, /_mock). */
  peek(referenceId: string): MtnRecord | undefined {
    return this.records.get(referenceId);
  }

  /** Every record, in creation order (the mock's own account of what it did, /_mock/records). */
  all(): MtnRecord[] {
    return this.records.values();
  }

  get(kind: MtnKind, referenceId: string): MtnRecord | undefined {
    const record = this.records.get(referenceId);
    return record?.kind === kind ? record : undefined;
  }

  /** Decides now (scheduled outcomes, and tests forcing one); the callback follows the plan. */
  decide(record: MtnRecord, status: 'SUCCESSFUL' | 'FAILED', reason?: string): void {
    const decided = {
      ...record,
      status,
      ...(reason ? { reason } : {}),
      ...(status === 'SUCCESSFUL' ? { financialTransactionId: String(randomInt(100_000_000, 999_999_999)) } : {}),
    };
    const apply = () =>
      this.records.set(
        record.referenceId,
        Object.assign(record, {
          status: decided.status,
          reason: decided.reason,
          financialTransactionId: decided.financialTransactionId,
        }),
      );
    const ahead = this.callbacks.plan.aheadOfStatusMs;
    if (ahead > 0) this.timers.after(ahead, apply);
    else apply();
    if (record.callbackUrl) this.callbacks.schedule(record.callbackUrl, this.statusBody(decided));
  }

  /** GET .../{referenceId} (M3, M5): reason only when FAILED, financialTransactionId only once settled. */
  statusBody(record: MtnRecord): Record<string, unknown> {
    const { amount, currency, externalId, payerMessage, payeeNote } = record.body;
    const party = record.kind === 'requesttopay' ? { payer: record.body.payer } : { payee: record.body.payee };
    const reason =
      record.status === 'FAILED' && record.reason
        ? { reason: this.o.reasonFormat === 'object' ? { code: record.reason, message: record.reason } : record.reason }
        : {};
    return {
      ...(record.financialTransactionId ? { financialTransactionId: record.financialTransactionId } : {}),
      externalId,
      amount,
      currency,
      ...party,
      payerMessage,
      payeeNote,
      status: record.status,
      ...reason,
    };
  }
}
