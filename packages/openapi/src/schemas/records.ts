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

/** The merchant's records other than transactions: refunds, balances, webhook events and their attempts. */
export const recordSchemas: Record<string, Schema> = {
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
