import type { AxiosResponse } from 'axios';
import type { OperatorRecord, OperatorResult, RecordKind } from '@mm/domain';
import {
  NoOperatorRecordError,
  OperatorPendingError,
  OperatorRefusedError,
  OperatorUnavailableError,
  type CallbackHint,
  type DisbursementRequest,
  type DisbursementResult,
  type MovementLookup,
  type OperatorAdapter,
  type PaymentLookup,
  type RefundRequest,
  type RefundResult,
  type UssdPushAck,
  type UssdPushRequest,
} from '../operator-adapter.js';
import { hintFromCallback } from './callback.js';
import {
  errorCodeOf,
  externalIdOf,
  statusLookup,
  toRefundBody,
  toRequestToPayBody,
  toTransferBody,
} from './mapping.js';
import { MtnProductClient, type MtnProductCredentials } from './product-client.js';
import { MTN_REASONS, REFUSING_500_CODES } from './reasons.js';
import { recordFromMtnStatus } from './record.js';
import { mtnReferenceId } from './reference-id.js';

export interface MtnMomoAdapterConfig {
  baseUrl: string;
  collection: MtnProductCredentials;
  /** Absent for an account that only collects: refunds and payouts then throw. */
  disbursement?: MtnProductCredentials;
  /** X-Target-Environment: `sandbox`, or the live market (`mtnivorycoast`, `mtncameroon`). */
  targetEnvironment: string;
  timeoutMs: number;
}

type Operation = OperatorRefusedError['operation'];
type AsyncOperation = 'refund' | 'disbursement';

const REQUEST_TO_PAY = '/collection/v1_0/requesttopay';
const REFUNDS = '/disbursement/v1_0/refund';
const TRANSFERS = '/disbursement/v1_0/transfer';

/**
 * What an answer other than the expected one means (README's contract, with MTN's quirks): 401/403 after the
 * token retry = our credentials; a 500 with a code refusing the request (reasons.ts) = a refusal, although MTN
 * sends it as a 500; other 5xx, 408, 429, a 404 without MTN's code and anything outside the protocol = unknown
 * outcome; other 4xx = refusal.
 */
function failure(operation: Operation, res: AxiosResponse): Error {
  const detail = JSON.stringify(res.data ?? null).slice(0, 300);
  if (res.status === 401 || res.status === 403)
    return new Error(`MTN refused our credentials for the ${operation}: ${res.status} ${detail}`);
  const code = errorCodeOf(res.data);
  if (res.status === 500 && code !== null && REFUSING_500_CODES.has(code))
    return new OperatorRefusedError(operation, res.status, detail);
  // MTN's own 404 names RESOURCE_NOT_FOUND (read by the caller); a bare one is a proxy or a wrong base URL, not an answer.
  if (res.status === 404)
    return new OperatorUnavailableError(`MTN answered 404 outside its protocol to the ${operation}: ${detail}`);
  if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429)
    return new OperatorRefusedError(operation, res.status, detail);
  return new OperatorUnavailableError(`MTN answered ${res.status} to the ${operation}: ${detail}`);
}

export class MtnMomoAdapter implements OperatorAdapter {
  readonly name = 'mtn-momo';
  // A request just created may not be found yet (MTN's 404, Wave's search): not found is no proof it never came.
  readonly statusMayLag = true;
  private readonly collection: MtnProductClient;
  private readonly disbursement: MtnProductClient | null;

  constructor(config: MtnMomoAdapterConfig) {
    const common = {
      baseUrl: config.baseUrl,
      targetEnvironment: config.targetEnvironment,
      timeoutMs: config.timeoutMs,
    };
    this.collection = new MtnProductClient({ ...common, ...config.collection, product: 'collection' });
    this.disbursement = config.disbursement
      ? new MtnProductClient({ ...common, ...config.disbursement, product: 'disbursement' })
      : null;
  }

  /** MTN gives no session id of its own: the payment is found again by the X-Reference-Id derived from our reference. */
  async pushUssd(req: UssdPushRequest): Promise<UssdPushAck> {
    const referenceId = mtnReferenceId(req.partnerReference);
    const res = await this.collection.call('push', 'POST', REQUEST_TO_PAY, {
      data: toRequestToPayBody(req),
      headers: { 'X-Reference-Id': referenceId, 'X-Callback-Url': req.callbackUrl },
    });
    if (res.status === 202) return { accepted: true, providerSessionId: null, customerAction: { type: 'NONE' } };
    // A retried push (our first answer was lost): MTN has it already. Adopt it, never push again.
    if (res.status === 409) return this.adoptExisting(req.partnerReference, referenceId);
    const code = errorCodeOf(res.data);
    // A request refused at once (unknown payer, wrong currency, ...): the payment fails with MTN's code.
    if (res.status === 500 && code !== null && REFUSING_500_CODES.has(code)) {
      // MTN's usual answer for a number without a wallet: the merchant reads PAYER_NOT_FOUND, not a bare refusal.
      return {
        accepted: false,
        providerState: 'KO',
        providerTxnStatus: code,
        failureCode: MTN_REASONS[code]?.failureCode ?? 'OPERATOR_REJECTED',
      };
    }
    throw failure('push', res);
  }

  async queryStatus(payment: PaymentLookup): Promise<OperatorResult & { found: boolean }> {
    const res = await this.collection.call(
      'status',
      'GET',
      `${REQUEST_TO_PAY}/${mtnReferenceId(payment.partnerReference)}`,
    );
    const result = statusLookup(res.status, res.data);
    if (result) return result;
    throw failure('status', res);
  }

  async refund(req: RefundRequest): Promise<RefundResult> {
    const body = toRefundBody(req, mtnReferenceId(req.originalPartnerReference));
    const outcome = await this.settle('refund', REFUNDS, req.partnerReference, body);
    return outcome.state === 'OK' ? { state: 'OK', providerRefundId: outcome.id } : outcome;
  }

  async disburse(req: DisbursementRequest): Promise<DisbursementResult> {
    const outcome = await this.settle('disbursement', TRANSFERS, req.partnerReference, toTransferBody(req));
    return outcome.state === 'OK' ? { state: 'OK', providerTxId: outcome.id } : outcome;
  }

  /**
   * Reconciliation: MTN has no list of movements, so each of ours is read back by its status query, under the
   * X-Reference-Id derived from its own reference (a refund's and a cash-out's, not the cash-in's): the request
   * to pay, the refund or the transfer, with the amount and currency MTN holds. 404 RESOURCE_NOT_FOUND: MTN has
   * no such movement (for a past day not a lag: it was never created).
   */
  async recordOf(movement: MovementLookup): Promise<OperatorRecord | null> {
    const { product, path } = this.recordSource(movement.kind);
    const res = await product.call('record', 'GET', `${path}/${mtnReferenceId(movement.reference)}`);
    if (res.status === 404 && errorCodeOf(res.data) === 'RESOURCE_NOT_FOUND') return null;
    const record = res.status === 200 ? recordFromMtnStatus(movement.kind, res.data, movement.reference) : null;
    if (record) return record;
    throw failure('status', res);
  }

  parseCallback(
    rawBody: Buffer,
    _headers: Record<string, string | string[] | undefined>,
    _nowMs: number,
    path?: string,
  ): CallbackHint | null {
    return hintFromCallback(rawBody, path);
  }

  private recordSource(kind: RecordKind): { product: MtnProductClient; path: string } {
    if (kind === 'CASHIN') return { product: this.collection, path: REQUEST_TO_PAY };
    if (!this.disbursement)
      throw new NoOperatorRecordError(
        'MTN',
        kind,
        'this account has no Disbursement credentials: its refunds and transfers cannot be read',
      );
    return { product: this.disbursement, path: kind === 'REFUND' ? REFUNDS : TRANSFERS };
  }

  private async adoptExisting(partnerReference: string, referenceId: string): Promise<UssdPushAck> {
    const res = await this.collection.call('push', 'GET', `${REQUEST_TO_PAY}/${referenceId}`);
    const found = statusLookup(res.status, res.data);
    if (!found) throw failure('push', res);
    // 409 then 404: created but not readable yet. Nothing is known; the retried push will find it.
    if (!found.found)
      throw new OperatorUnavailableError(
        `MTN answered 409 to the push of ${partnerReference} but does not show it yet`,
      );
    const externalId = externalIdOf(res.data);
    if (externalId !== null && externalId !== partnerReference) {
      throw new OperatorRefusedError('push', 409, `X-Reference-Id ${referenceId} is taken by ${externalId}`);
    }
    return { accepted: true, providerSessionId: null, customerAction: { type: 'NONE' } };
  }

  /**
   * Refunds and transfers answer 202 and are decided later (M5). Asked first, so a retry never posts twice:
   * 404 = never created, posted now (409 = created meanwhile: read it); then read: decided, or OperatorPendingError.
   */
  private async settle(
    operation: AsyncOperation,
    path: string,
    partnerReference: string,
    body: unknown,
  ): Promise<{ state: 'OK'; id: string } | { state: 'FAILED'; reason: string }> {
    const product = this.disbursement;
    if (!product)
      throw new Error(
        `this MTN account has no Disbursement credentials: cannot ${operation === 'refund' ? 'refund' : 'pay out'}`,
      );
    const referenceId = mtnReferenceId(partnerReference);
    let known = await this.read(product, operation, `${path}/${referenceId}`);
    if (!known.found) {
      const res = await product.call(operation, 'POST', path, {
        data: body,
        headers: { 'X-Reference-Id': referenceId },
      });
      if (res.status !== 202 && res.status !== 409) throw failure(operation, res);
      known = await this.read(product, operation, `${path}/${referenceId}`);
    }
    if (known.providerState === 'OK') return { state: 'OK', id: known.providerTxId ?? referenceId };
    if (known.providerState === 'canceled' || known.providerState === 'KO')
      return { state: 'FAILED', reason: known.providerTxnStatus ?? 'FAILED' };
    // PENDING, or accepted (202/409) but not readable yet: with MTN, undecided.
    throw new OperatorPendingError(operation, referenceId);
  }

  private async read(
    product: MtnProductClient,
    operation: AsyncOperation,
    url: string,
  ): Promise<OperatorResult & { found: boolean }> {
    const res = await product.call(operation, 'GET', url);
    const result = statusLookup(res.status, res.data);
    if (result) return result;
    throw failure(operation, res);
  }
}
