import type { AxiosInstance } from 'axios';
import { isTransient, operatorHttp, refusal, send, singleHeader } from '../http/operator-http.js';
import { signatureMatches, timestampWithinTolerance, type OperatorResult } from '@mm/domain';
import {
  OperatorUnavailableError,
  type DisbursementRequest,
  type DisbursementResult,
  type OperatorAdapter,
  type OperatorRecordsPage,
  type PaymentLookup,
  type RefundRequest,
  type RefundResult,
  type UssdPushAck,
  type UssdPushRequest,
  type VerifiedCallback,
} from '../operator-adapter.js';
import {
  ackFromPushResponse,
  disbursementResultFromResponse,
  refundResultFromResponse,
  resultFromCallback,
  resultFromStatusResponse,
  toDisbursementBody,
  toPushBody,
  toRefundBody,
} from './mapping.js';
import { recordsPageFromResponse } from './records.js';

export interface SimulatorAdapterConfig {
  baseUrl: string;
  apiToken: string;
  callbackSecret: string;
  /** Bound on each call to the operator; past it the call throws OperatorUnavailableError. */
  timeoutMs: number;
  /** How far X-Operator-Timestamp may be from our clock; older callbacks are treated as replays. */
  callbackToleranceS?: number;
}

export class SimulatorOperatorAdapter implements OperatorAdapter {
  readonly name = 'simulator';
  private readonly http: AxiosInstance;
  private readonly callbackSecret: string;
  private readonly callbackToleranceS: number;

  constructor(config: SimulatorAdapterConfig) {
    this.http = operatorHttp(config.baseUrl, config.timeoutMs, { Authorization: `Bearer ${config.apiToken}` });
    this.callbackSecret = config.callbackSecret;
    this.callbackToleranceS = config.callbackToleranceS ?? 300;
  }

  async pushUssd(req: UssdPushRequest): Promise<UssdPushAck> {
    const res = await send('push', () => this.http.post('/v1/payments/ussd-push', toPushBody(req)));
    if (isTransient(res.status)) throw new OperatorUnavailableError(`operator answered ${res.status} to the push`);
    if (res.status >= 400) {
      throw refusal('push', res);
    }
    const ack = ackFromPushResponse(res.status, res.data);
    // An answer outside the protocol tells us nothing; the push is idempotent, so retrying it is safe.
    if (!ack) throw new OperatorUnavailableError(`unexpected push answer: ${res.status} ${JSON.stringify(res.data)}`);
    return ack;
  }

  /** POST /v1/payments/:ref/otp: 202 taken; a 4xx (409 not waiting for a code, 404, 400) is a refusal. */
  async submitCode(payment: PaymentLookup, code: string): Promise<void> {
    const res = await send('code', () =>
      this.http.post(`/v1/payments/${encodeURIComponent(payment.partnerReference)}/otp`, { code }),
    );
    if (isTransient(res.status))
      throw new OperatorUnavailableError(`operator answered ${res.status} to the one-time code`);
    if (res.status === 202) return;
    if (res.status >= 400) throw refusal('code', res);
    throw new OperatorUnavailableError(`unexpected one-time code answer: ${res.status}`);
  }

  async queryStatus(payment: PaymentLookup): Promise<OperatorResult & { found: boolean }> {
    const res = await send('status', () =>
      this.http.get(`/v1/payments/${encodeURIComponent(payment.partnerReference)}`),
    );
    if (isTransient(res.status))
      throw new OperatorUnavailableError(`operator answered ${res.status} to the status query`);
    const result = resultFromStatusResponse(res.status, res.data);
    if (result) return result;
    if (res.status >= 400) throw refusal('status', res);
    throw new OperatorUnavailableError(`unexpected status answer: ${res.status} ${JSON.stringify(res.data)}`);
  }

  async refund(req: RefundRequest): Promise<RefundResult> {
    const res = await send('refund', () => this.http.post('/v1/refunds', toRefundBody(req)));
    if (isTransient(res.status)) throw new OperatorUnavailableError(`operator answered ${res.status} to the refund`);
    const result = refundResultFromResponse(res.status, res.data);
    if (result) return result;
    if (res.status >= 400) {
      throw refusal('refund', res);
    }
    // Nothing is known; the refund is idempotent on its reference, so retrying it is safe.
    throw new OperatorUnavailableError(`unexpected refund answer: ${res.status} ${JSON.stringify(res.data)}`);
  }

  async disburse(req: DisbursementRequest): Promise<DisbursementResult> {
    const res = await send('disbursement', () => this.http.post('/v1/disbursements', toDisbursementBody(req)));
    if (isTransient(res.status))
      throw new OperatorUnavailableError(`operator answered ${res.status} to the disbursement`);
    const result = disbursementResultFromResponse(res.status, res.data);
    if (result) return result;
    if (res.status >= 400) {
      throw refusal('disbursement', res);
    }
    // Nothing is known, not even whether it paid; the disbursement is idempotent on its reference, so retrying is safe.
    throw new OperatorUnavailableError(`unexpected disbursement answer: ${res.status} ${JSON.stringify(res.data)}`);
  }

  /** GET /v1/transactions: the day's cash-ins, refunds and disbursements by creation time (UTC), a page at a time. */
  async listRecords(date: string, cursor: string | null): Promise<OperatorRecordsPage> {
    const params = cursor === null ? { date } : { date, after: cursor };
    const res = await send('records', () => this.http.get('/v1/transactions', { params }));
    if (isTransient(res.status))
      throw new OperatorUnavailableError(`operator answered ${res.status} to the transactions list`);
    const page = recordsPageFromResponse(res.status, res.data);
    if (page) return page;
    if (res.status >= 400) throw refusal('records', res);
    throw new OperatorUnavailableError(
      `unexpected transactions answer: ${res.status} ${JSON.stringify(res.data).slice(0, 300)}`,
    );
  }

  parseCallback(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    nowMs: number,
  ): VerifiedCallback | null {
    const timestamp = singleHeader(headers, 'x-operator-timestamp');
    const signature = singleHeader(headers, 'x-operator-signature');
    if (timestamp === undefined || signature === undefined) return null;
    if (!timestampWithinTolerance(timestamp, nowMs, this.callbackToleranceS)) return null;
    // Verified over the raw bytes before parsing: a re-serialised body would not be what was signed.
    if (!signatureMatches(this.callbackSecret, timestamp, rawBody, signature)) return null;
    let data: unknown;
    try {
      data = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return null;
    }
    const result = resultFromCallback(data);
    return result && { ...result, replayKey: signature.toLowerCase() };
  }
}
