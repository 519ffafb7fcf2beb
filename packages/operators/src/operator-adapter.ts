import type { OperatorResult } from '@mm/domain';

/** What the service asks of a mobile operator. One implementation per operator, plus the simulator. */
export interface UssdPushRequest {
  /** Our provider_reference: the operator dedupes on it, so a retried push never pushes twice. */
  partnerReference: string;
  msisdn: string;
  amount: number;
  currency: string;
  motif: string | null;
  /** Where the operator posts the result (the operator bridge's callback route). */
  callbackUrl: string;
}

export type UssdPushAck =
  | { accepted: true; providerSessionId: string }
  | { accepted: false; providerState: 'KO'; providerTxnStatus: string | null };

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
    readonly operation: 'push' | 'status' | 'refund' | 'disbursement',
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

/** Refund of (part of) a confirmed cash-in back to the customer's wallet. */
export interface RefundRequest {
  /** The refund's own reference: the operator dedupes on it, so a retried refund never pays twice. */
  partnerReference: string;
  /** provider_reference of the cash-in being refunded. */
  originalPartnerReference: string;
  amount: number;
  currency: string;
}

export type RefundResult =
  | { state: 'OK'; providerRefundId: string }
  | { state: 'FAILED'; reason: string };

/** Cash-out: pays money from the merchant's balance to a customer's wallet. */
export interface DisbursementRequest {
  /** Our provider_reference of the CASHOUT transaction: the operator dedupes on it, so a retry never pays twice. */
  partnerReference: string;
  msisdn: string;
  amount: number;
  currency: string;
  reason: string | null;
}

export type DisbursementResult =
  | { state: 'OK'; providerTxId: string }
  | { state: 'FAILED'; reason: string };

export interface OperatorAdapter {
  readonly name: string;
  pushUssd(req: UssdPushRequest): Promise<UssdPushAck>;
  /** Current result for a reference; providerState PENDING when the customer has not answered yet. */
  queryStatus(partnerReference: string): Promise<OperatorResult & { found: boolean }>;
  /** Refunds synchronously; idempotent on partnerReference (a repeat answers the first result). */
  refund(req: RefundRequest): Promise<RefundResult>;
  /** Pays out synchronously; idempotent on partnerReference (a repeat answers the first result and pays nothing). */
  disburse(req: DisbursementRequest): Promise<DisbursementResult>;
  /**
   * Verifies and parses an inbound callback. Returns null when the signature or timestamp is wrong:
   * the bridge answers 401 and applies nothing.
   */
  parseCallback(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, nowMs: number): VerifiedCallback | null;
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
