import { PAYMENT_LINK_STATUSES } from '@mm/domain';
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { conditional, orNull, ref, timestamp } from './primitives.js';

type Schema = SchemaObject;
type Field = SchemaObject | ReferenceObject;

const refundFields: Record<string, Field> = {
  refund_id: { type: 'string', format: 'uuid' },
  transaction_id: { type: 'string', format: 'uuid' },
  merchant_order_id: ref('MerchantOrderId'),
  amount: { type: 'integer', minimum: 1 },
  currency: ref('Currency'),
  reason: orNull({ type: 'string' }),
  status: { type: 'string', enum: ['PENDING', 'SUCCESS', 'FAILED'] },
  failure_reason: orNull({ type: 'string', description: "The operator's reason when the refund FAILED." }),
  provider_reference: {
    type: 'string',
    description:
      'Reference of the refund sent to the operator, which dedupes on it: a retried refund is never paid twice.',
  },
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: orNull(timestamp),
};
const REFUND_FIELDS = Object.keys(refundFields);

const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });
const linkAmount = (description: string): Schema => orNull({ type: 'integer', minimum: 1, description });
const linkAddress = (description: string): Schema => ({ type: 'string', format: 'uri', description });

const paymentLinkFields: Record<string, Field> = {
  payment_link_id: { type: 'string', format: 'uuid' },
  url: linkAddress("The customer's page, https://<gateway>/l/<slug>: share it, or its QR code."),
  qr_code: {
    type: 'object',
    additionalProperties: false,
    required: ['png', 'svg'],
    properties: {
      png: linkAddress('The link address as a QR code, PNG.'),
      svg: linkAddress('The same QR code, SVG.'),
    },
  },
  status: ref('PaymentLinkStatus'),
  description: { type: 'string', minLength: 1, maxLength: 255 },
  country_code: ref('CountryCode'),
  currency: ref('Currency'),
  amount: linkAmount(
    'The fixed amount, in whole francs; null when the customer types it within min_amount..max_amount.',
  ),
  min_amount: linkAmount('With max_amount, the bounds of the amount the customer types; null for a fixed amount.'),
  max_amount: linkAmount('With min_amount, the bounds of the amount the customer types; null for a fixed amount.'),
  reusable: { type: 'boolean' },
  max_payments: orNull({
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000,
    description:
      'At most this many successful or in-progress payments: 1 for a single-use link, null for a reusable one without a cap.',
  }),
  expires_at: orNull({ ...timestamp, description: 'After it the link takes no payment; null: it does not expire.' }),
  redirect_url: orNull({
    type: 'string',
    format: 'uri',
    description: 'Where the customer is sent once the payment has ended.',
  }),
  metadata: orNull({
    type: 'object',
    description: "Yours, as given: copied onto each payment's transaction.",
    additionalProperties: { type: ['string', 'number', 'boolean'] },
  }),
  payments: {
    type: 'object',
    additionalProperties: false,
    required: ['succeeded', 'in_progress', 'collected_amount'],
    description: 'The payments made through the link so far.',
    properties: {
      succeeded: count('Successful payments.'),
      in_progress: count('Payments started and not yet decided (they hold their place under max_payments).'),
      collected_amount: count('Sum of the successful payments, in whole francs.'),
    },
  },
  created_at: timestamp,
  deactivated_at: orNull({ ...timestamp, description: 'When you deactivated it; null while you have not.' }),
};

/** The merchant's records other than transactions: refunds, balances, webhook events and their attempts. */
export const recordSchemas: Record<string, Schema> = {
  PaymentLinkStatus: {
    type: 'string',
    enum: [...PAYMENT_LINK_STATUSES],
    description:
      'ACTIVE: it takes payments. COMPLETED: its successful payments reached max_payments (a single-use link once paid). ' +
      'EXPIRED: expires_at has passed. INACTIVE: you deactivated it (it never takes a payment again).',
  },
  PaymentLink: {
    type: 'object',
    description:
      "A payment link (docs/payment-links.md): every field always present, null where it does not apply. Each payment made through it is a cash-in carrying the link's payment_link_id.",
    additionalProperties: false,
    required: Object.keys(paymentLinkFields),
    properties: paymentLinkFields,
    allOf: [
      // A fixed amount, or both bounds.
      conditional(
        { properties: { amount: { type: 'integer' } } },
        { properties: { min_amount: { type: 'null' }, max_amount: { type: 'null' } } },
        { properties: { amount: { type: 'null' }, min_amount: { type: 'integer' }, max_amount: { type: 'integer' } } },
      ),
      // A single-use link takes one payment.
      conditional({ properties: { reusable: { const: false } } }, { properties: { max_payments: { const: 1 } } }, {}),
    ],
  },
  Refund: {
    type: 'object',
    additionalProperties: false,
    required: REFUND_FIELDS,
    properties: refundFields,
    description:
      'A refund of a SUCCESS cash-in. Its amount is reserved from the available balance when accepted and released if it FAILS.',
  },
  Balance: {
    type: 'object',
    additionalProperties: false,
    required: ['country_code', 'country_name', 'currency', 'available_balance', 'pending_balance', 'updated_at'],
    properties: {
      country_code: ref('CountryCode'),
      country_name: { type: 'string' },
      currency: ref('Currency'),
      available_balance: {
        type: 'integer',
        minimum: 0,
        description: 'Captured cash-ins minus refunds and cash-outs, reserved or paid.',
      },
      pending_balance: {
        type: 'integer',
        minimum: 0,
        description: 'Cash-ins not yet decided (CREATED, INITIATED, PENDING).',
      },
      updated_at: {
        ...timestamp,
        description: "Last movement of either balance (the subsidiary's activation when none).",
      },
    },
  },
  ExportMeta: {
    type: 'object',
    additionalProperties: false,
    required: ['count', 'date_from', 'date_to'],
    properties: {
      count: { type: 'integer', minimum: 0 },
      date_from: { type: 'string', format: 'date' },
      date_to: { type: 'string', format: 'date' },
      country_code: ref('CountryCode'),
    },
  },
  WebhookAttempt: {
    type: 'object',
    additionalProperties: false,
    required: ['attempt_no', 'status_code', 'latency_ms', 'error', 'success', 'at'],
    properties: {
      attempt_no: {
        type: 'integer',
        minimum: 1,
        description: '1 to 7 on the schedule; a delivery re-sent after it was abandoned continues the count.',
      },
      status_code: orNull({
        type: 'integer',
        description: 'HTTP status your endpoint answered; null when it did not answer.',
      }),
      latency_ms: { type: 'integer', minimum: 0 },
      error: orNull({
        type: 'string',
        description:
          'Why the attempt failed when no status explains it, in fixed words that never name an address: `timeout after N ms`, `connection refused`, `connection reset`, `host unreachable`, `TLS handshake failed`, `connection failed`, `merchant has no active key`, or `target refused: the URL must be http(s) and its host must resolve to public addresses only` (also when the host does not resolve).',
      }),
      success: { type: 'boolean', description: 'A 2xx within 10 s.' },
      at: timestamp,
    },
  },
  WebhookEvent: {
    type: 'object',
    additionalProperties: false,
    required: [
      'event_id',
      'event',
      'transaction_id',
      'status',
      'target_url',
      'attempt_count',
      'next_attempt_at',
      'delivered_at',
      'created_at',
      'payload',
      'attempts',
    ],
    properties: {
      event_id: { type: 'string', format: 'uuid' },
      event: { type: 'string', enum: ['transaction.status_changed', 'refund.status_changed'] },
      transaction_id: { type: 'string', format: 'uuid' },
      status: {
        type: 'string',
        enum: ['PENDING', 'DELIVERED', 'ABANDONED', 'NO_TARGET'],
        description:
          'PENDING: being delivered or retried; ABANDONED: 7 attempts failed (re-sent by the service on request); NO_TARGET: neither notify_url nor a default URL.',
      },
      target_url: orNull({ type: 'string' }),
      attempt_count: { type: 'integer', minimum: 0 },
      next_attempt_at: orNull(timestamp),
      delivered_at: orNull(timestamp),
      created_at: timestamp,
      payload: {
        description:
          'The fields of the JSON body sent to your endpoint (stored as JSON: its key order may differ from the bytes that were signed).',
        oneOf: [ref('TransactionStatusChangedEvent'), ref('RefundStatusChangedEvent')],
      },
      attempts: { type: 'array', items: ref('WebhookAttempt') },
    },
  },
  TransactionStatusChangedEvent: {
    type: 'object',
    description: 'Sent on every move of a transaction to SUCCESS, FAILED, EXPIRED or REVERSED.',
    additionalProperties: false,
    required: [
      'event',
      'event_id',
      'transaction_id',
      'merchant_order_id',
      'type',
      'status',
      'amount',
      'currency',
      'country_code',
      'provider_tx_id',
      'timestamp',
    ],
    properties: {
      event: { type: 'string', const: 'transaction.status_changed' },
      event_id: {
        type: 'string',
        format: 'uuid',
        description: 'The same on every retry of this event: deduplicate on it.',
      },
      transaction_id: { type: 'string', format: 'uuid' },
      merchant_order_id: ref('MerchantOrderId'),
      type: { type: 'string', enum: ['CASHIN', 'CASHOUT'] },
      status: { type: 'string', enum: ['SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED'] },
      amount: { type: 'integer', minimum: 1 },
      currency: ref('Currency'),
      country_code: ref('CountryCode'),
      provider_tx_id: orNull({ type: 'string' }),
      failure_code: { ...ref('FailureCode'), description: 'Only on FAILED.' },
      failure_reason: orNull({ type: 'string', description: 'Only on FAILED.' }),
      operator: {
        ...ref('Operator'),
        description:
          'The operator the payment went through (additive field). On every event recorded since it was added; ' +
          'an event recorded before (or a retry or re-send of one) lacks it, as its body is stored when the change happens.',
      },
      payment_link_id: {
        type: 'string',
        format: 'uuid',
        description:
          'The payment link the payment was made through (additive field): only on the events of such a payment, absent on every other.',
      },
      timestamp: {
        type: 'string',
        format: 'date-time',
        pattern: '\\+00:00$',
        description: 'When the change happened, ISO 8601 with offset.',
      },
    },
    // failure_code and failure_reason come with FAILED and only with it.
    ...conditional(
      { properties: { status: { const: 'FAILED' } } },
      { required: ['failure_code', 'failure_reason'] },
      { not: { anyOf: [{ required: ['failure_code'] }, { required: ['failure_reason'] }] } },
    ),
  },
  RefundStatusChangedEvent: {
    type: 'object',
    description: 'Sent when a refund becomes SUCCESS or FAILED (before the REVERSED event a refund may cause).',
    additionalProperties: false,
    required: ['event', 'event_id', ...REFUND_FIELDS, 'timestamp'],
    properties: {
      event: { type: 'string', const: 'refund.status_changed' },
      event_id: { type: 'string', format: 'uuid' },
      ...refundFields,
      status: { type: 'string', enum: ['SUCCESS', 'FAILED'] },
      timestamp: { type: 'string', format: 'date-time', pattern: '\\+00:00$' },
    },
  },
};
