import { randomInt, randomUUID } from 'node:crypto';
import { IN_MEMORY, type RecordJournal, RecordMap } from '@mm/fake-operator';
import type { CallbackBody, PushRequestBody, WireResult } from './wire.js';

export interface Push extends WireResult {
  partnerReference: string;
  /** null for a push the operator rejected outright: no USSD session was opened. */
  sessionId: string | null;
  msisdn: string;
  amount: number;
  currency: string;
  motif: string | null;
  callbackUrl: string;
  createdAt: Date;
  /** When the push got its result (the customer's answer or a scripted outcome); null while PENDING. */
  decidedAt: Date | null;
  /** The last callback body sent, kept verbatim so resend-callback sends exactly the same thing. */
  lastCallback: CallbackBody | null;
  /** A one-time-code payment (scenarios.ts) whose code has not arrived: nothing decides it, the phone does not ring. */
  awaitingCode: boolean;
}

/**
 * The sandbox operator's memory. Keyed by partner_reference because that is what the operator dedupes on.
 * pushCount is kept apart from the pushes so a bug that registered one reference twice would show as 2;
 * requestCount also counts replays, so a test can tell a retry that reached us from one that never did.
 */
export class PushStore {
  /** Kept in the journal (a restart keeps them; their timers are not resumed: a PENDING push stays so). */
  private readonly pushes: RecordMap<Push>;
  private readonly counts = new Map<string, number>();
  private readonly requests = new Map<string, number>();

  constructor(journal: RecordJournal = IN_MEMORY) {
    this.pushes = new RecordMap<Push>(journal, 'push', (p) => ({
      ...p,
      createdAt: new Date(p.createdAt),
      decidedAt: p.decidedAt === null ? null : new Date(p.decidedAt),
    }));
  }

  get(partnerReference: string): Push | undefined {
    return this.pushes.get(partnerReference);
  }

  list(): Push[] {
    return this.pushes.values();
  }

  pushCount(partnerReference: string): number {
    return this.counts.get(partnerReference) ?? 0;
  }

  /** Push requests that reached the operator for this reference, replays included. */
  requestCount(partnerReference: string): number {
    return this.requests.get(partnerReference) ?? 0;
  }

  countRequest(partnerReference: string): void {
    this.requests.set(partnerReference, this.requestCount(partnerReference) + 1);
  }

  /** Registers a new push; the caller has checked the reference is unknown. */
  create(body: PushRequestBody, initial: Omit<WireResult, 'provider_tx_id'>, opensSession: boolean): Push {
    const push: Push = {
      partnerReference: body.partner_reference,
      sessionId: opensSession ? `SES-${randomUUID()}` : null,
      msisdn: body.msisdn,
      amount: body.amount,
      currency: body.currency,
      motif: body.motif,
      callbackUrl: body.callback_url,
      createdAt: new Date(),
      decidedAt: null,
      lastCallback: null,
      awaitingCode: false,
      ...initial,
      provider_tx_id: null,
    };
    this.pushes.set(push.partnerReference, push);
    this.counts.set(push.partnerReference, this.pushCount(push.partnerReference) + 1);
    return push;
  }

  /**
   * Moves a PENDING push to its result; returns undefined when it is unknown or already decided, so a scripted
   * timer firing after a person answered on the phone changes nothing.
   */
  resolve(partnerReference: string, result: Omit<WireResult, 'provider_tx_id'>): Push | undefined {
    const push = this.pushes.get(partnerReference);
    if (!push || push.state !== 'PENDING') return undefined;
    return this.update(push, {
      ...result,
      provider_tx_id: result.state === 'OK' ? newProviderTxId() : null,
      decidedAt: new Date(),
    });
  }

  /** Changes a push (and writes it down). */
  update(push: Push, change: Partial<Push>): Push {
    Object.assign(push, change);
    this.pushes.set(push.partnerReference, push);
    return push;
  }
}

function newProviderTxId(): string {
  return `MP${Date.now().toString().slice(-8)}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

export function callbackBodyOf(push: Push): CallbackBody {
  return {
    partner_reference: push.partnerReference,
    session_id: push.sessionId,
    provider_tx_id: push.provider_tx_id,
    state: push.state,
    txn_status: push.txn_status,
    failure_reason: push.failure_reason,
  };
}
