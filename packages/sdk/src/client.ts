import { randomUUID } from 'node:crypto';
import { MobileMoneyError } from './errors.js';
import { readJson, Transport, type Call, type TransportOptions } from './transport.js';
import type {
  Balance,
  Cashout,
  CashoutRequest,
  CashinRequest,
  CashinTransaction,
  ExportMeta,
  ExportQuery,
  ExportRow,
  PaymentLink,
  PaymentLinkPage,
  PaymentLinkRequest,
  PaymentLinksQuery,
  Refund,
  RefundRequest,
  Transaction,
  WebhookEventRecord,
  WebhookEventsQuery,
} from './types.js';

export type ClientOptions = TransportOptions;

/**
 * The merchant API v1. Every method signs its request, returns the `data` of the answer, and throws a
 * typed error (ApiError subclasses by status, ConnectionError when nothing answered).
 */
export class MobileMoneyClient {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
  }

  /**
   * Collects a payment by USSD push. Answers once the operator acknowledged the push (status PENDING) or
   * after 5 s with the state reached; the outcome comes by webhook. Sending the same merchant_order_id
   * and parameters again returns the same transaction, in its current state.
   */
  createCashin(body: CashinRequest): Promise<CashinTransaction> {
    return this.data({ method: 'POST', path: '/payments/cashin', body });
  }

  /** Pays from the balance to a wallet (501 NotConfiguredError where cash-out is off). Idempotent on merchant_order_id. */
  createCashout(body: CashoutRequest): Promise<Cashout> {
    return this.data({ method: 'POST', path: '/payments/cashout', body });
  }

  /** A cash-in or cash-out by its transaction_id. */
  getPayment(transactionId: string): Promise<Transaction> {
    return this.data({ method: 'GET', path: `/payments/${encodeURIComponent(transactionId)}` });
  }

  /**
   * Refunds a SUCCESS cash-in, in whole (amount omitted) or in part. An Idempotency-Key is generated when
   * none is given, so the client's own retries never refund twice; a thrown error carries the key used
   * (`err.idempotencyKey`), so that your retry can send it again.
   */
  createRefund(body: RefundRequest, options: { idempotencyKey?: string } = {}): Promise<Refund> {
    return this.once({ method: 'POST', path: '/refunds', body }, options.idempotencyKey);
  }

  getRefund(refundId: string): Promise<Refund> {
    return this.data({ method: 'GET', path: `/refunds/${encodeURIComponent(refundId)}` });
  }

  /**
   * Creates a payment link: its `url` and `qr_code` to share, status ACTIVE. Sent with an Idempotency-Key
   * (a random one unless you give yours), as a refund is: the client's retries never make two links, and
   * a thrown error carries the key (`err.idempotencyKey`) for your own retry.
   */
  createPaymentLink(body: PaymentLinkRequest, options: { idempotencyKey?: string } = {}): Promise<PaymentLink> {
    return this.once({ method: 'POST', path: '/payment-links', body }, options.idempotencyKey);
  }

  /** A payment link by its payment_link_id, with its payments' counts and the total collected. */
  getPaymentLink(paymentLinkId: string): Promise<PaymentLink> {
    return this.data({ method: 'GET', path: `/payment-links/${encodeURIComponent(paymentLinkId)}` });
  }

  /**
   * Your payment links, newest first, one page at a time: while `has_more`, ask for the next with
   * `starting_after` set to the payment_link_id of the last link of `data`.
   */
  async listPaymentLinks(query: PaymentLinksQuery = {}): Promise<PaymentLinkPage> {
    const call: Call = { method: 'GET', path: '/payment-links', query };
    return readJson<PaymentLinkPage>(await this.transport.send(call), call);
  }

  /** Stops a link taking payments (one in progress goes on to its end); deactivating it again answers the same. */
  deactivatePaymentLink(paymentLinkId: string): Promise<PaymentLink> {
    return this.data({
      method: 'POST',
      path: `/payment-links/${encodeURIComponent(paymentLinkId)}/deactivate`,
      // The signature covers the body, not the path: the id makes each link's deactivation its own request.
      body: { payment_link_id: paymentLinkId },
    });
  }

  /** One balance per active country subsidiary. */
  listBalances(): Promise<Balance[]> {
    return this.data({ method: 'GET', path: '/balances' });
  }

  /** Transactions created from date_from to date_to (UTC days, both included), as JSON rows. */
  async exportTransactions(query: Omit<ExportQuery, 'format'>): Promise<{ data: ExportRow[]; meta: ExportMeta }> {
    const call: Call = { method: 'GET', path: '/transactions/export', query: { ...query, format: 'json' } };
    return readJson<{ data: ExportRow[]; meta: ExportMeta }>(await this.transport.send(call), call);
  }

  /**
   * The same export as CSV, streamed as it arrives (flat memory for millions of rows), e.g.
   * `Readable.fromWeb(stream).pipe(createWriteStream('export.csv'))`. A download cut short fails the stream
   * (the service cuts it rather than end a partial file), so a file that ends is complete.
   */
  async exportTransactionsCsv(query: Omit<ExportQuery, 'format'>): Promise<ReadableStream<Uint8Array>> {
    const res = await this.transport.send({
      method: 'GET',
      path: '/transactions/export',
      query: { ...query, format: 'csv' },
    });
    if (!res.body) throw new MobileMoneyError('the export answered without a body');
    return res.body;
  }

  /** Your webhook events, newest first, each with every delivery attempt. */
  listWebhookEvents(query: WebhookEventsQuery = {}): Promise<WebhookEventRecord[]> {
    return this.data({ method: 'GET', path: '/webhook-events', query });
  }

  /**
   * A creation sent with an Idempotency-Key, so that the transport's retries never do it twice. To retry
   * one whose outcome is unknown (ConnectionError, ServerError) yourself, send the key the error carries:
   * e.g. createRefund(body, { idempotencyKey: err.idempotencyKey }).
   */
  private async once<T>(call: Call, idempotencyKey: string = randomUUID()): Promise<T> {
    try {
      return await this.data<T>({ ...call, headers: { ...call.headers, 'Idempotency-Key': idempotencyKey } });
    } catch (err) {
      if (err instanceof MobileMoneyError) err.idempotencyKey = idempotencyKey;
      throw err;
    }
  }

  private async data<T>(call: Call): Promise<T> {
    return (await readJson<{ data: T }>(await this.transport.send(call), call)).data;
  }
}
