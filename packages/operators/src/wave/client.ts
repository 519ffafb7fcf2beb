import type { AxiosInstance, AxiosResponse } from 'axios';
import type { OperatorResult } from '@mm/domain';
import {
  NOT_FOUND_AT_OPERATOR,
  OperatorPendingError,
  OperatorRefusedError,
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
  type CallbackHint,
  type VerifiedCallback,
} from '../operator-adapter.js';
import {
  disbursementResultOf,
  errorCodeOf,
  eventOf,
  payoutOf,
  payoutsOf,
  pickSession,
  resultFromSession,
  sessionOf,
  sessionsOf,
  toCheckoutBody,
  toPayoutBody,
  type WavePayout,
  type WaveSession,
} from './mapping.js';
import { recordOfTransaction, transactionsPageOf } from './transactions.js';
import { waveSignatureHolds } from './webhook.js';
import { isTransient, operatorHttp, send, singleHeader } from '../http/operator-http.js';

export interface WaveAdapterConfig {
  baseUrl: string;
  /** The business wallet's API key (`wave_<country>_<env>_...`), sent as a bearer token on every call. */
  apiKey: string;
  /** The signing secret Wave shows when the webhook is registered with the signing-secret strategy. */
  webhookSecret: string;
  timeoutMs: number;
  /** How far a webhook's `t` may be from our clock, either way (Wave: refuse older than 5 minutes). */
  webhookToleranceS?: number;
}

type Operation = OperatorRefusedError['operation'];

/** Wave keys read `wave_<country>_<env>_<secret>` (docs.wave.com: `wave_sn_prod_YhUNb9d...`). */
export const WAVE_API_KEY_FORM = /^wave_[A-Za-z0-9]+_[A-Za-z0-9]+_[A-Za-z0-9_-]+$/;

/**
 * Wave Checkout (a redirect: the customer pays in the Wave app or page, then comes back to ours) and
 * Payout. Wave does not dedupe checkouts on client_reference, so every push first searches for a live
 * session of the reference; payouts carry our reference as Idempotency-Key and are searched first too.
 */
export class WaveOperatorAdapter implements OperatorAdapter {
  readonly name = 'wave';
  // A request just created may not be found yet (MTN's 404, Wave's search): not found is no proof it never came.
  readonly statusMayLag = true;
  private readonly http: AxiosInstance;
  private readonly toleranceS: number;

  constructor(private readonly config: WaveAdapterConfig) {
    this.http = operatorHttp(config.baseUrl, config.timeoutMs, { Authorization: `Bearer ${config.apiKey}` });
    this.toleranceS = config.webhookToleranceS ?? 300;
  }

  async pushUssd(req: UssdPushRequest): Promise<UssdPushAck> {
    const { returnUrl } = req;
    if (!returnUrl) throw new Error('a Wave checkout needs returnUrl: the page Wave sends the customer back to');
    // A retried push (after a timeout whose outcome is unknown) finds the session the first one made, and adopts
    // it even when it has ended meanwhile (the customer gave up, it expired): that session is this payment's
    // outcome. A second one would ask the customer again for a payment Wave already closed unpaid.
    const session =
      pickSession(await this.search(req.partnerReference, 'push')) ?? (await this.createSession({ ...req, returnUrl }));
    return {
      accepted: true,
      providerSessionId: session.id,
      customerAction: { type: 'REDIRECT', url: session.wave_launch_url },
    };
  }

  async queryStatus(payment: PaymentLookup): Promise<OperatorResult & { found: boolean }> {
    const session = payment.providerSessionId
      ? await this.getSession(payment.providerSessionId, 'status')
      : pickSession(await this.search(payment.partnerReference, 'status'));
    if (!session) return NOT_FOUND_AT_OPERATOR;
    return { found: true, ...(await this.settled(session)) };
  }

  async refund(req: RefundRequest): Promise<RefundResult> {
    const id = req.original?.providerSessionId;
    const session = id
      ? await this.getSession(id, 'refund')
      : pickSession(await this.search(req.originalPartnerReference, 'refund'));
    if (!session) return { state: 'FAILED', reason: 'UNKNOWN_TRANSACTION' };
    // Wave's refund has no amount: it gives the whole checkout back, so anything else is ours to refuse.
    if (Number(session.amount) !== req.amount)
      throw new OperatorRefusedError('refund', 400, 'Wave refunds a checkout in full only');
    const res = await send('refund', () =>
      this.http.post(`/v1/checkout/sessions/${encodeURIComponent(session.id)}/refund`),
    );
    // 200 with an empty body; Wave answers a repeat the same way and pays once (the mock reproduces it).
    if (res.status === 200) return { state: 'OK', providerRefundId: session.id };
    const code = errorCodeOf(res.data);
    if (res.status === 404 && code === 'checkout-session-not-found')
      return { state: 'FAILED', reason: 'UNKNOWN_TRANSACTION' };
    if (res.status === 400 && code === 'checkout-refund-failed') {
      // For a paid session this may be the answer to our own earlier refund, whose 200 was lost: Wave paid
      // it back. Not provable from here, so not FAILED (the merchant's balance would be restored twice):
      // unknown, retried, then parked for a person to check in the Wave portal.
      if (session.payment_status === 'succeeded')
        throw new OperatorUnavailableError(
          `Wave refused the refund of a paid checkout (already refunded?): ${failureText(res.data, code)}`,
        );
      return { state: 'FAILED', reason: failureText(res.data, code) };
    }
    throw this.unexpected('refund', res);
  }

  async disburse(req: DisbursementRequest): Promise<DisbursementResult> {
    const found = await this.searchPayouts(req.partnerReference);
    const payout = preferredPayout(found) ?? (await this.createPayout(req));
    const result = disbursementResultOf(payout);
    if (!result) throw new OperatorPendingError('disbursement', payout.id);
    return result;
  }

  /**
   * Wave's list of the wallet's transactions of one day (docs.wave.com/balance-api, transactions.ts): the
   * executed ones only, each a SUCCESS; those that are not this service's (QR payments, sweeps...) left out.
   */
  async listRecords(date: string, cursor: string | null): Promise<OperatorRecordsPage> {
    const params = cursor === null ? { date } : { date, after: cursor };
    const res = await send('records', () => this.http.get('/v1/transactions', { params }));
    const page = res.status === 200 ? transactionsPageOf(res.data) : null;
    if (!page) throw this.unexpected('records', res);
    // Wave says which day it listed: another one (a wallet in another time zone, say) is not the day asked.
    if (page.date !== date)
      throw new OperatorUnavailableError(`Wave listed the transactions of ${page.date} when asked for ${date}`);
    return { records: page.items.map(recordOfTransaction).filter((r) => r !== null), next: page.next };
  }

  parseCallback(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    nowMs: number,
  ): VerifiedCallback | CallbackHint | null {
    const header = singleHeader(headers, 'wave-signature');
    // Verified over the raw bytes before anything is parsed.
    if (!header || !waveSignatureHolds(this.config.webhookSecret, header, rawBody, nowMs, this.toleranceS)) return null;
    let data: unknown;
    try {
      data = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return null;
    }
    const event = eventOf(data);
    const result = event && resultFromSession(event.data);
    if (!event || !result) return null;
    // Wave sends the same event again (same id, new t and signature): the event id is what identifies it.
    const partnerReference = event.data.client_reference as string;
    // A failed attempt leaves the session open and payable: applying the failure as it came would fail a
    // payment the customer may still make. Only a status query (which expires the session first) decides it.
    if (result.providerState !== 'OK' && result.providerState !== 'PENDING')
      return { hint: true, partnerReference, replayKey: event.id };
    return { ...result, partnerReference, providerSessionId: event.data.id, replayKey: event.id };
  }

  /**
   * A failed attempt leaves the session open and payable again. Before a failure is reported (and the
   * payment failed for good), the session is expired so no payment can follow; Wave's 409 means it was no
   * longer open (the customer paid meanwhile, or it expired): read it again.
   */
  private async settled(session: WaveSession): Promise<OperatorResult> {
    const result = resultFromSession(session);
    if (!result) throw new OperatorUnavailableError(`unexpected Wave session: ${JSON.stringify(session)}`);
    if (session.checkout_status !== 'open' || (result.providerState !== 'canceled' && result.providerState !== 'KO'))
      return result;
    const res = await send('status', () =>
      this.http.post(`/v1/checkout/sessions/${encodeURIComponent(session.id)}/expire`),
    );
    if (res.status === 200) return result;
    if (res.status !== 409) throw this.unexpected('status', res);
    const again = await this.getSession(session.id, 'status');
    const reread = again && resultFromSession(again);
    if (!again || !reread || again.checkout_status === 'open')
      throw new OperatorUnavailableError(`Wave session ${session.id} neither closed nor decided`);
    return reread;
  }

  private async createSession(req: UssdPushRequest & { returnUrl: string }): Promise<WaveSession> {
    const res = await send('push', () => this.http.post('/v1/checkout/sessions', toCheckoutBody(req)));
    const session = res.status === 200 ? sessionOf(res.data) : null;
    if (session) return session;
    throw this.unexpected('push', res);
  }

  private async getSession(id: string, operation: Operation): Promise<WaveSession | null> {
    const res = await send(operation, () => this.http.get(`/v1/checkout/sessions/${encodeURIComponent(id)}`));
    if (res.status === 404 && errorCodeOf(res.data) === 'checkout-session-not-found') return null;
    const session = res.status === 200 ? sessionOf(res.data) : null;
    if (session) return session;
    throw this.unexpected(operation, res);
  }

  private async search(reference: string, operation: Operation): Promise<WaveSession[]> {
    const res = await send(operation, () =>
      this.http.get('/v1/checkout/sessions/search', { params: { client_reference: reference } }),
    );
    const sessions = res.status === 200 ? sessionsOf(res.data) : null;
    if (sessions) return sessions.filter((s) => s.client_reference === reference);
    throw this.unexpected(operation, res);
  }

  private async searchPayouts(reference: string): Promise<WavePayout[]> {
    const res = await send('disbursement', () =>
      this.http.get('/v1/payouts/search', { params: { client_reference: reference } }),
    );
    const payouts = res.status === 200 ? payoutsOf(res.data) : null;
    // Only ours: a looser search must not make another payout this cash-out's.
    if (payouts) return payouts.filter((p) => p.client_reference === reference);
    throw this.unexpected('disbursement', res);
  }

  private async createPayout(req: DisbursementRequest): Promise<WavePayout> {
    const res = await send('disbursement', () =>
      this.http.post('/v1/payout', toPayoutBody(req), { headers: { 'Idempotency-Key': req.partnerReference } }),
    );
    const payout = res.status === 200 ? payoutOf(res.data) : null;
    if (payout) return payout;
    throw this.unexpected('disbursement', res);
  }

  /** Any answer the caller did not take: transient -> unavailable, 401/403 -> our key, other 4xx -> refused. */
  private unexpected(operation: Operation, res: AxiosResponse): Error {
    const detail = JSON.stringify(res.data ?? null).slice(0, 500);
    if (isTransient(res.status))
      return new OperatorUnavailableError(`Wave answered ${res.status} to the ${operation}: ${detail}`);
    if (res.status === 401 || res.status === 403)
      return new Error(`Wave refused our API key for the ${operation}: ${res.status} ${detail}`);
    if (res.status >= 400) return new OperatorRefusedError(operation, res.status, detail);
    return new OperatorUnavailableError(`unexpected Wave answer to the ${operation}: ${res.status} ${detail}`);
  }
}

function failureText(data: unknown, code: string): string {
  const message = (data as { message?: unknown }).message;
  return (typeof message === 'string' && message ? `${code}: ${message}` : code).slice(0, 200);
}

/** A repeat pays nothing: the payout already made for the reference is the answer, the paid one first. */
function preferredPayout(payouts: WavePayout[]): WavePayout | null {
  return (
    payouts.find((p) => p.status === 'succeeded') ??
    payouts.find((p) => p.status === 'processing') ??
    payouts[0] ??
    null
  );
}
