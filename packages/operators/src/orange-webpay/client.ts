import type { AxiosInstance, AxiosResponse } from 'axios';
import type { OperatorRecord, OperatorResult } from '@mm/domain';
import { AccessTokenCache, withAccessToken } from '../auth/access-token-cache.js';
import {
  NOT_FOUND_AT_OPERATOR,
  NoOperatorRecordError,
  OperatorRefusedError,
  OperatorUnavailableError,
  type CallbackHint,
  type DisbursementResult,
  type MovementLookup,
  type OperatorAdapter,
  type PaymentLookup,
  type RefundResult,
  type UssdPushAck,
  type UssdPushRequest,
} from '../operator-adapter.js';
import { orangeCallbackHint } from '../orange-shared/callback-hint.js';
import { bodyText, isTransient, operatorHttp, refusal, send } from '../http/operator-http.js';
import { issueClientCredentialsToken } from '../orange-shared/http.js';
import { recordFromStatus } from '../record-of-status.js';
import { initAnswerOf, isDuplicateOrder, resultFromStatusResponse, toInitBody } from './mapping.js';

export interface OrangeWebpayConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  merchantKey: string;
  /** `dev`, `ci`, `sn`, `cm`...; default: the payment's country code, lower-cased. */
  countryPath?: string;
  /** Sent instead of the payment's currency (the dev environment takes "OUV" only). */
  currency?: string;
  lang?: string;
  timeoutMs: number;
}

/**
 * Orange Money WebPay: a redirect operator. The init gives a pay_token (stored as provider_session_id)
 * and a payment_url the customer pays on; the status query wants order_id, amount and pay_token back.
 * There is no refund or payout API.
 */
export class OrangeWebpayAdapter implements OperatorAdapter {
  readonly name = 'orange-webpay';
  private readonly http: AxiosInstance;
  private readonly tokens: AccessTokenCache;

  constructor(private readonly config: OrangeWebpayConfig) {
    this.http = operatorHttp(config.baseUrl, config.timeoutMs);
    this.tokens = new AccessTokenCache({
      issue: () => issueClientCredentialsToken(this.http, '/oauth/v3/token', config.clientId, config.clientSecret),
    });
  }

  async pushUssd(req: UssdPushRequest): Promise<UssdPushAck> {
    if (!req.returnUrl)
      throw new Error('orange-webpay needs the payment page URL (returnUrl) to send the customer back to');
    if (!Number.isInteger(req.amount)) throw new Error(`orange-webpay takes integer amounts only, got ${req.amount}`);
    const body = toInitBody(
      { ...req, returnUrl: req.returnUrl },
      { merchantKey: this.config.merchantKey, currency: this.config.currency, lang: this.config.lang ?? 'fr' },
    );
    const res = await this.authed('push', (headers) =>
      this.http.post(`${this.root(req)}/webpayment`, body, { headers }),
    );
    if (isTransient(res.status))
      throw new OperatorUnavailableError(`operator answered ${res.status} to the web payment`);
    const answer = initAnswerOf(res.status, res.data);
    if (answer)
      return {
        accepted: true,
        providerSessionId: answer.payToken,
        customerAction: { type: 'REDIRECT', url: answer.paymentUrl },
      };
    if (isDuplicateOrder(res.status, res.data)) return this.alreadyInitiated(req);
    if (res.status >= 400) throw refusal('push', res);
    throw new OperatorUnavailableError(`unexpected web payment answer: ${res.status} ${bodyText(res.data)}`);
  }

  async queryStatus(payment: PaymentLookup): Promise<OperatorResult & { found: boolean }> {
    // Orange finds a web payment by its pay_token only: without one it never had the payment from us.
    if (!payment.providerSessionId) return NOT_FOUND_AT_OPERATOR;
    const body = { order_id: payment.partnerReference, amount: payment.amount, pay_token: payment.providerSessionId };
    const res = await this.authed('status', (headers) =>
      this.http.post(`${this.root(payment)}/transactionstatus`, body, { headers }),
    );
    if (isTransient(res.status))
      throw new OperatorUnavailableError(`operator answered ${res.status} to the status query`);
    const result = resultFromStatusResponse(res.status, res.data);
    if (result) return result;
    if (res.status >= 400) throw refusal('status', res);
    throw new OperatorUnavailableError(`unexpected status answer: ${res.status} ${bodyText(res.data)}`);
  }

  /**
   * Reconciliation: WebPay has no list of movements, only the status query of one web payment, and only cash-ins
   * exist there (no refund or payout API: none was ever sent to Orange). Its answer {status, order_id, txnid} names
   * no amount, so the record carries the cash-in's own amount: it proves the outcome, never the amount.
   */
  async recordOf(movement: MovementLookup): Promise<OperatorRecord | null> {
    if (movement.kind !== 'CASHIN')
      throw new NoOperatorRecordError(
        this.name,
        movement.kind,
        'Orange WebPay has no refund or payout API, so no status query for one',
      );
    const status = await this.queryStatus(movement.payment);
    return status.found ? recordFromStatus(movement, status) : null;
  }

  refund(): Promise<RefundResult> {
    return Promise.reject(new OperatorRefusedError('refund', 501, 'Orange WebPay has no refund API'));
  }

  disburse(): Promise<DisbursementResult> {
    return Promise.reject(new OperatorRefusedError('disbursement', 501, 'Orange WebPay has no payout API'));
  }

  parseCallback(
    rawBody: Buffer,
    _headers: Record<string, string | string[] | undefined>,
    _nowMs: number,
    path?: string,
  ): CallbackHint | null {
    return orangeCallbackHint(rawBody, path);
  }

  /**
   * Orange refuses a second init with the same order_id, so a retried init never creates a second payment.
   * With the pay_token of the first we look it up; without it nothing is known yet (the bridge asks later).
   */
  private async alreadyInitiated(req: UssdPushRequest): Promise<UssdPushAck> {
    if (req.providerSessionId) {
      const status = await this.queryStatus(req);
      if (status.found) return { accepted: true, providerSessionId: req.providerSessionId };
    }
    throw new OperatorUnavailableError(
      `order_id ${req.partnerReference} already initiated at Orange; its pay_token is not known here`,
    );
  }

  private root(payment: PaymentLookup): string {
    const country = this.config.countryPath ?? payment.countryCode?.toLowerCase();
    if (!country)
      throw new Error("orange-webpay needs a country path (settings.countryPath or the payment's country code)");
    return `/orange-money-webpay/${encodeURIComponent(country)}/v1`;
  }

  private authed(
    what: string,
    call: (headers: Record<string, string>) => Promise<AxiosResponse>,
  ): Promise<AxiosResponse> {
    return withAccessToken(this.tokens, (token) =>
      send(what, () => call({ Authorization: `Bearer ${token}`, Accept: 'application/json' })),
    );
  }
}
