import type { FailureCode, OperatorRecord, OperatorResult, RecordKind } from '@mm/domain';

/**
 * What an adapter needs to find a payment again at its operator: our reference, and what the
 * operator gave us for it (its own token or session id, stored as provider_session_id). Some operators
 * are asked by their own id (Orange's pay token, Wave's checkout session), some want the amount back
 * (Orange WebPay's status query): the stored transaction is passed, never the reference alone.
 */
export interface PaymentLookup {
  /** Our provider_reference. */
  partnerReference: string;
  /** The operator's own id for the payment, when it gave one (null or absent before). */
  providerSessionId?: string | null;
  msisdn: string;
  amount: number;
  currency: string;
  countryCode?: string;
}

/** What the customer must do for the operator to take the payment (the payment page shows it). */
export type CustomerAction =
  /** A USSD push: the customer's phone rings, nothing to do on the page. */
  | { type: 'NONE' }
  /** A redirect operator: the customer pays on the operator's page, then comes back to ours. */
  | { type: 'REDIRECT'; url: string }
  /** The customer generates a one-time code (by dialling `ussd`) and enters it on the payment page. */
  | { type: 'OTP'; ussd: string };

/** What the service asks of a mobile operator. One implementation per operator, plus the simulator. */
export interface UssdPushRequest extends PaymentLookup {
  /** Our provider_reference: the operator dedupes on it (or the adapter does), so a retried push never pushes twice. */
  partnerReference: string;
  motif: string | null;
  /** Where the operator posts the result (the operator bridge's callback route, naming this payment). */
  callbackUrl: string;
  /** Where a redirect operator sends the customer back (our payment page for this transaction). */
  returnUrl?: string;
}

export type UssdPushAck =
  | { accepted: true; providerSessionId: string | null; customerAction?: CustomerAction }
  /**
   * Refused at once: the cash-in is FAILED. `providerState` KO (the operator refused it) or canceled
   * (the payer's side, e.g. a balance the operator checked at once); `failureCode` when the adapter
   * knows the cause (MTN's PAYER_NOT_FOUND), OPERATOR_REJECTED otherwise.
   */
  | {
      accepted: false;
      providerState: 'KO' | 'canceled';
      providerTxnStatus: string | null;
      failureCode?: FailureCode;
      failureReason?: string | null;
    };

/**
 * Thrown when a refund or payout is with the operator but not decided yet (MTN answers 202 and is
 * asked again later): the caller leaves it PENDING / INITIATED and asks again, with the same reference.
 */
export class OperatorPendingError extends Error {
  constructor(
    readonly operation: 'refund' | 'disbursement',
    readonly providerId: string | null,
  ) {
    super(`operator has not decided the ${operation} yet`);
    this.name = 'OperatorPendingError';
  }
}

/** The operator's answer for a payment it does not have (never pushed, or not visible yet: see statusMayLag). */
export const NOT_FOUND_AT_OPERATOR: Readonly<OperatorResult & { found: false }> = Object.freeze({
  found: false,
  providerState: 'PENDING',
  providerTxnStatus: null,
  providerTxId: null,
  failureReason: null,
});

/** Thrown when the operator could not be reached or did not answer in time: nothing is known. */
export class OperatorUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OperatorUnavailableError';
  }
}

/**
 * Thrown when the operator answered that the request itself is refused (a 4xx other than 408/429):
 * it did nothing with it, and sending it again will not change that. The one error on which a caller
 * may decide a payment for good (a refund or payout FAILED, a push rejected); any other error leaves
 * the outcome unknown.
 */
export class OperatorRefusedError extends Error {
  constructor(
    readonly operation: 'push' | 'status' | 'refund' | 'disbursement' | 'code' | 'records',
    readonly httpStatus: number,
    readonly detail: string,
  ) {
    super(`operator refused the ${operation} request: ${httpStatus} ${detail}`);
    this.name = 'OperatorRefusedError';
  }

  /** What is recorded as the refund's or cash-out's failure reason (bounded: the body is the operator's). */
  get reason(): string {
    return `operator refused the request (${this.httpStatus}): ${this.detail}`.slice(0, 200);
  }
}

/**
 * Thrown by recordOf for a kind of movement the operator keeps no record we can ask about (Orange has no
 * refund or payout API at all, so no status query for one either): nothing was asked, nothing is known.
 * Not an outage and not "the operator does not know it": a person checks such movements another way.
 */
export class NoOperatorRecordError extends Error {
  constructor(
    readonly operator: string,
    readonly kind: RecordKind,
    detail: string,
  ) {
    super(`${operator} keeps no record of a ${kind} that we can ask about: ${detail}`);
    this.name = 'NoOperatorRecordError';
  }
}

/** One page of an operator's list of movements (OperatorAdapter.listRecords). */
export interface OperatorRecordsPage {
  records: OperatorRecord[];
  next: string | null;
}

/** One of our movements, as recordOf asks the operator about it. */
export interface MovementLookup {
  kind: RecordKind;
  /** The movement's own provider_reference (the refund's, for a refund). */
  reference: string;
  /** The cash-in (for a CASHIN, and the refunded cash-in for a REFUND) or the cash-out, as stored. */
  payment: PaymentLookup & { providerTxId: string | null };
  /** The refund's amount (a REFUND); the payment's otherwise. */
  amount: number;
  currency: string;
}

/** Refund of (part of) a confirmed cash-in back to the customer's wallet. */
export interface RefundRequest {
  /** The refund's own reference: the operator dedupes on it, so a retried refund never pays twice. */
  partnerReference: string;
  /** provider_reference of the cash-in being refunded. */
  originalPartnerReference: string;
  amount: number;
  currency: string;
  /** The cash-in being refunded, as stored (its operator's ids, its number), for operators that need them. */
  original?: PaymentLookup & { providerTxId: string | null };
}

export type RefundResult = { state: 'OK'; providerRefundId: string } | { state: 'FAILED'; reason: string };

/** Cash-out: pays money from the merchant's balance to a customer's wallet. */
export interface DisbursementRequest {
  /** Our provider_reference of the CASHOUT transaction: the operator dedupes on it, so a retry never pays twice. */
  partnerReference: string;
  msisdn: string;
  amount: number;
  currency: string;
  reason: string | null;
}

export type DisbursementResult = { state: 'OK'; providerTxId: string } | { state: 'FAILED'; reason: string };

export interface OperatorAdapter {
  readonly name: string;
  /**
   * True when the operator's status lookup may not yet see a request it has just taken (MTN's 404 for a
   * request created a moment ago, Wave's search): "not found" right after an unanswered push then proves
   * nothing, and the bridge leaves the payment PENDING for its expiry check instead of failing it.
   */
  readonly statusMayLag?: boolean;
  /**
   * For operators that do not dedupe on our reference (Orange's mp API): asks the operator for its own
   * id of the payment, which the bridge stores as provider_session_id before the push, so a retried push
   * reuses it instead of paying twice. Absent for operators that dedupe on our reference.
   */
  prepare?(req: UssdPushRequest): Promise<{ providerSessionId: string }>;
  /** Starts the payment: a USSD push, or a session the customer completes (see the ack's customerAction). */
  pushUssd(req: UssdPushRequest): Promise<UssdPushAck>;
  /**
   * For operators whose customer confirms with a one-time code typed on our payment page (the ack's
   * customerAction OTP): hands the code to the operator. Resolves once the operator took it (its result
   * comes as usual: callback or status); OperatorRefusedError when the operator refuses the request itself
   * (not waiting for a code, malformed), OperatorUnavailableError when it did not answer.
   */
  submitCode?(payment: PaymentLookup, code: string): Promise<void>;
  /** Current result for a payment; providerState PENDING when the customer has not answered yet. */
  queryStatus(payment: PaymentLookup): Promise<OperatorResult & { found: boolean }>;
  /**
   * Refunds; idempotent on partnerReference (a repeat answers the first result). Throws
   * OperatorPendingError while the operator has not decided (asked again later with the same request).
   */
  refund(req: RefundRequest): Promise<RefundResult>;
  /** Pays out; idempotent on partnerReference (a repeat pays nothing). OperatorPendingError while undecided. */
  disburse(req: DisbursementRequest): Promise<DisbursementResult>;
  /**
   * Reconciliation, for operators with a list of their own movements (Wave's GET /v1/transactions, the
   * simulator's GET /v1/transactions): one page of the movements of one business day (UTC, YYYY-MM-DD),
   * cash-ins, refunds and payouts, mapped onto the one vocabulary of @mm/domain. `cursor` is null for the
   * first page; the answer's `next` is null on the last.
   */
  listRecords?(date: string, cursor: string | null): Promise<OperatorRecordsPage>;
  /**
   * Reconciliation, for operators without such a list (MTN, Orange): the operator's word on one of our
   * movements, by its status query (with the amount it reports where it reports one). Null when the
   * operator does not know it (MTN's 404). Throws OperatorUnavailableError when it did not answer, and
   * NoOperatorRecordError for a kind of movement the operator offers no way to ask about.
   */
  recordOf?(movement: MovementLookup): Promise<OperatorRecord | null>;
  /**
   * Verifies and parses an inbound callback. `path` is what follows the account's callback route (for
   * operators whose callback URL names the payment). Returns a result only when the callback is signed
   * and the signature holds; a hint (an unsigned callback naming a payment: "go and look") for operators
   * that do not sign; null when it is neither (the bridge answers 401 and applies nothing).
   */
  parseCallback(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    nowMs: number,
    path?: string,
  ): VerifiedCallback | CallbackHint | null;
}

/**
 * An unsigned callback: anyone could have sent it, so nothing in it is applied. It only makes the
 * bridge ask the operator's status for the payment it names, and apply that answer.
 */
export interface CallbackHint {
  hint: true;
  partnerReference: string;
  /** What identifies this delivery (the bridge queues a hint once per key within its window). */
  replayKey: string;
}

/** A callback whose signature held: what it says, and what identifies this very delivery. */
export type VerifiedCallback = OperatorResult & {
  partnerReference: string;
  providerSessionId: string | null;
  /**
   * The same for the same signed bytes and different otherwise (the signature): the bridge takes a
   * delivery once, so a captured callback sent again within the tolerance is not queued twice.
   */
  replayKey: string;
};
