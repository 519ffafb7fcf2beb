import type { components, operations } from './generated/api.js';

type Schemas = components['schemas'];

/** A cash-in as POST /payments/cashin answers it. */
export type CashinTransaction = Schemas['CashinTransaction'];
/** A transaction (cash-in or cash-out) as GET /payments/{id} reads it. */
export type Transaction = Schemas['Transaction'];
/** A cash-out as POST /payments/cashout answers it. */
export type Cashout = Schemas['Cashout'];
export type Refund = Schemas['Refund'];
export type Balance = Schemas['Balance'];
export type ExportRow = Schemas['ExportRow'];
export type ExportMeta = Schemas['ExportMeta'];
export type WebhookEventRecord = Schemas['WebhookEvent'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type TransactionStatus = Schemas['TransactionStatus'];
export type FailureCode = Schemas['FailureCode'];
export type ErrorCode = Schemas['ErrorCode'];
export type FieldIssue = Schemas['FieldIssue'];
/** A payment link, its QR code and its payments' counts (docs/payment-links.md). */
export type PaymentLink = Schemas['PaymentLink'];
export type PaymentLinkStatus = Schemas['PaymentLinkStatus'];

export type CashinRequest = Schemas['CashinRequest'];
export type CashoutRequest = Schemas['CashoutRequest'];
export type RefundRequest = Schemas['RefundRequest'];
export type PaymentLinkRequest = Schemas['PaymentLinkRequest'];
export type ExportQuery = NonNullable<operations['exportTransactions']['parameters']['query']>;
export type WebhookEventsQuery = NonNullable<operations['listWebhookEvents']['parameters']['query']>;
export type PaymentLinksQuery = NonNullable<operations['listPaymentLinks']['parameters']['query']>;
/** A page of links, newest first: ask for the next with `starting_after` set to the last one's payment_link_id. */
export type PaymentLinkPage = operations['listPaymentLinks']['responses'][200]['content']['application/json'];

export type TransactionStatusChangedEvent = Schemas['TransactionStatusChangedEvent'];
export type RefundStatusChangedEvent = Schemas['RefundStatusChangedEvent'];
/** What a webhook carries: narrow on `event`. */
export type WebhookEvent = TransactionStatusChangedEvent | RefundStatusChangedEvent;
