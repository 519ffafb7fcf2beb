import { createHash } from 'node:crypto';
import { IN_MEMORY, type RecordJournal, RecordMap, type TimerSet } from '@mm/fake-operator';
import { waveId } from './ids.js';
import { payoutScript } from './outcomes.js';

export interface MockPayout {
  id: string;
  currency: string;
  receive_amount: string;
  fee: string;
  mobile: string;
  name: string | null;
  payment_reason: string | null;
  client_reference: string | null;
  status: 'processing' | 'succeeded' | 'failed' | 'reversed';
  payout_error: { error_code: string; error_message: string } | null;
  timestamp: string;
}

type Remembered = { bodyHash: string; status: number; body: unknown };

/**
 * Wave payouts: processing, then decided after the outcome delay (no payout webhook: the caller polls).
 * A repeated Idempotency-Key answers the first answer again; the same key with another body is refused.
 */
export class PayoutBook {
  // Kept in the journal, answers to Idempotency-Keys too: a retry after a restart must not pay twice.
  private readonly payouts: RecordMap<MockPayout>;
  private readonly byKey: RecordMap<Remembered>;
  /** Each payout's transaction id in the wallet's list of transactions (the payout object itself shows none). */
  private readonly transactionIds: RecordMap<string>;

  constructor(
    private readonly o: {
      timers: TimerSet;
      now: () => number;
      outcomeDelayMs: number;
      lateConfirmDelayMs: number;
      feeRate: number;
      journal?: RecordJournal;
    },
  ) {
    const journal = o.journal ?? IN_MEMORY;
    this.payouts = new RecordMap<MockPayout>(journal, 'payout');
    this.byKey = new RecordMap<Remembered>(journal, 'idempotency-key');
    this.transactionIds = new RecordMap<string>(journal, 'payout-transaction');
  }

  remembered(key: string, body: unknown): Remembered | 'mismatch' | undefined {
    const seen = this.byKey.get(key);
    if (!seen) return undefined;
    return seen.bodyHash === hashOf(body) ? seen : 'mismatch';
  }

  remember(key: string, body: unknown, status: number, answer: unknown): void {
    this.byKey.set(key, { bodyHash: hashOf(body), status, body: answer });
  }

  /** null: refused at once (07). */
  create(
    fields: Pick<MockPayout, 'currency' | 'receive_amount' | 'mobile' | 'name' | 'payment_reason' | 'client_reference'>,
  ): MockPayout | null {
    const script = payoutScript(fields.mobile);
    if (script.kind === 'refuse') return null;
    const fee = String(Math.ceil(Number(fields.receive_amount) * this.o.feeRate));
    const p: MockPayout = {
      ...fields,
      id: waveId('pt-'),
      fee,
      status: 'processing',
      payout_error: null,
      timestamp: new Date(this.o.now()).toISOString(),
    };
    this.payouts.set(p.id, p);
    this.transactionIds.set(p.id, waveId('T_', 12).toUpperCase());
    const decide = () => {
      if (script.kind === 'succeed') p.status = 'succeeded';
      else if (script.kind === 'fail')
        Object.assign(p, {
          status: 'failed',
          payout_error: { error_code: script.code, error_message: script.message },
        });
      this.payouts.set(p.id, p);
    };
    if (script.kind === 'never') return p;
    const delay = script.kind === 'succeed' && script.late ? this.o.lateConfirmDelayMs : this.o.outcomeDelayMs;
    if (delay <= 0) decide();
    else this.o.timers.after(delay, decide);
    return p;
  }

  get(id: string): MockPayout | undefined {
    return this.payouts.get(id);
  }

  search(reference: string): MockPayout[] {
    return this.payouts.values().filter((p) => p.client_reference === reference);
  }

  all(): MockPayout[] {
    return this.payouts.values();
  }

  transactionIdOf(id: string): string | null {
    return this.transactionIds.get(id) ?? null;
  }
}

function hashOf(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}
