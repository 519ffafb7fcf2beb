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
import { mpDataOf, payTokenOfInit, reportedAmountOf, resultFromStatusResponse, toPayBody } from './mapping.js';

export interface OrangeMpConfig {
  baseUrl: string;
  /** The API user's login and password (Basic on /token). */
  clientId: string;
  clientSecret: string;
  /** Sent as X-AUTH-TOKEN on every call after the token. */
  xAuthToken: string;
  /** The merchant (channel user) wallet's number, 9 digits, and its PIN. */
  channelUserMsisdn: string;
  pin: string;
  timeoutMs: number;
}

const API = '/omcoreapis/1.0.2/mp';

/**
 * Orange Money Cameroon's USSD push ("mp" API). Orange does not dedupe on our reference: prepare() asks
 * for a payToken the bridge stores before paying, and a retried push pays with that same token, which
 * Orange refuses a second time (417) instead of charging twice. No refund or payout API.
 */
export class OrangeMpAdapter implements OperatorAdapter {
  readonly name = 'orange-mp';
  private readonly http: AxiosInstance;
  private readonly tokens: AccessTokenCache;

  constructor(private readonly config: OrangeMpConfig) {
    this.http = operatorHttp(config.baseUrl, config.timeoutMs);
    this.tokens = new AccessTokenCache({
      issue: () => issueClientCredentialsToken(this.http, '/token', config.clientId, config.clientSecret),
    });
  }

  async prepare(): Promise<{ providerSessionId: string }> {
    const res = await this.authed('init', (headers) => this.http.post(`${API}/init`, undefined, { headers }));
    if (isTransient(res.status)) throw new OperatorUnavailableError(`operator answered ${res.status} to the init`);
    const payToken = payTokenOfInit(res.status, res.data);
    if (payToken) return { providerSessionId: payToken };
    if (res.status >= 400) throw refusal('push', res);
    throw new OperatorUnavailableError(`unexpected init answer: ${res.status} ${bodyText(res.data)}`);
  }

  async pushUssd(req: UssdPushRequest): Promise<UssdPushAck> {
    const payToken = req.providerSessionId ?? (await this.prepare()).providerSessionId;
    const body = toPayBody(req, payToken, this.config);
    const res = await this.authed('push', (headers) => this.http.post(`${API}/pay`, body, { headers }));
    if (isTransient(res.status)) throw new OperatorUnavailableError(`operator answered ${res.status} to the pay`);
    const data = mpDataOf(res.data);
    if (res.status === 200 && data)
      return { accepted: true, providerSessionId: payToken, customerAction: { type: 'NONE' } };
    // 417: Orange refused this pay. Either the token was already paid with (a retried push), or it decided
    // the payment at once (60019...), or the token expired: its status says which, never a blind failure.
    if (res.status === 417) return this.resolveRefusedPay(req, payToken, res);
    if (res.status >= 400) throw refusal('push', res);
    throw new OperatorUnavailableError(`unexpected pay answer: ${res.status} ${bodyText(res.data)}`);
  }

  async queryStatus(payment: PaymentLookup): Promise<OperatorResult & { found: boolean }> {
    if (!payment.providerSessionId) return NOT_FOUND_AT_OPERATOR;
    return (await this.status(payment.providerSessionId)).result;
  }

  /**
   * Reconciliation: mp has no list of movements, only the status query of one pay token, and only cash-ins exist
   * there (no refund or payout API: none was ever sent to Orange). Its `data` carries the amount Orange took
   * (karibu-cap's ProviderCashInResponse) but no currency: XAF, the only one of Orange Cameroon, as the
   * movement's. Without a pay token stored the payment never reached Orange (the bridge stores it before paying).
   */
  async recordOf(movement: MovementLookup): Promise<OperatorRecord | null> {
    if (movement.kind !== 'CASHIN') {
      throw new NoOperatorRecordError(
        this.name,
        movement.kind,
        "Orange Money mp has no refund or payout API (a refund goes by an aggregator's transfer), so no status query for one",
      );
    }
    if (!movement.payment.providerSessionId) return null;
    const { result, data } = await this.status(movement.payment.providerSessionId);
    if (!result.found) return null;
    const amount = reportedAmountOf(data);
    return recordFromStatus(movement, result, amount === null ? undefined : { amount, currency: movement.currency });
  }

  private async status(payToken: string): Promise<{ result: OperatorResult & { found: boolean }; data: unknown }> {
    const path = `${API}/paymentstatus/${encodeURIComponent(payToken)}`;
    const res = await this.authed('status', (headers) => this.http.get(path, { headers }));
    if (isTransient(res.status))
      throw new OperatorUnavailableError(`operator answered ${res.status} to the status query`);
    const result = resultFromStatusResponse(res.status, res.data);
    if (result) return { result, data: res.data };
    // A 404 that is not Orange's own not-found (isMpNotFound) says nothing about the payment: unknown, never "not received".
    if (res.status === 404)
      throw new OperatorUnavailableError(`404 outside Orange's protocol to the status query: ${bodyText(res.data)}`);
    if (res.status >= 400) throw refusal('status', res);
    throw new OperatorUnavailableError(`unexpected status answer: ${res.status} ${bodyText(res.data)}`);
  }

  refund(): Promise<RefundResult> {
    return Promise.reject(
      new OperatorRefusedError(
        'refund',
        501,
        'Orange Money mp has no refund API (refund by a payout through an aggregator)',
      ),
    );
  }

  disburse(): Promise<DisbursementResult> {
    return Promise.reject(new OperatorRefusedError('disbursement', 501, 'Orange Money mp has no payout API'));
  }

  parseCallback(
    rawBody: Buffer,
    _headers: Record<string, string | string[] | undefined>,
    _nowMs: number,
    path?: string,
  ): CallbackHint | null {
    return orangeCallbackHint(rawBody, path);
  }

  private async resolveRefusedPay(req: UssdPushRequest, payToken: string, res: AxiosResponse): Promise<UssdPushAck> {
    const status = await this.queryStatus({ ...req, providerSessionId: payToken });
    if (!status.found)
      throw new OperatorUnavailableError(`pay refused (417) and pay token unknown to Orange: ${bodyText(res.data)}`);
    // Still INITIATED: Orange refused this very request, but a first pay with the same token may have reached it
    // and not be visible yet: an unknown outcome (retried; the last attempt's status query and the expiry check
    // decide), never a failure that a prompt the customer then approves would contradict.
    if (status.providerTxnStatus === 'INITIATED')
      throw new OperatorUnavailableError(
        `pay refused (417) while the pay token is still INITIATED: ${bodyText(res.data)}`,
      );
    // Refused at pay time for a cause Orange already recorded (60019, a threshold): decided now, not at
    // the first status poll a minute later.
    if (status.providerState === 'canceled' || status.providerState === 'KO') {
      return {
        accepted: false,
        providerState: status.providerState,
        providerTxnStatus: status.providerTxnStatus,
        failureCode: status.failureCode ?? undefined,
        failureReason: status.failureReason,
      };
    }
    return { accepted: true, providerSessionId: payToken, customerAction: { type: 'NONE' } };
  }

  private authed(
    what: string,
    call: (headers: Record<string, string>) => Promise<AxiosResponse>,
  ): Promise<AxiosResponse> {
    return withAccessToken(this.tokens, (token) =>
      send(what, () =>
        call({ Authorization: `Bearer ${token}`, 'X-AUTH-TOKEN': this.config.xAuthToken, Accept: 'application/json' }),
      ),
    );
  }
}
