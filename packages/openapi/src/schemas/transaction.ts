import { FAILURE_CODES, OPERATORS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@mm/domain';
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { conditional, orNull, ref, timestamp } from './primitives.js';

type Schema = SchemaObject;
type Field = SchemaObject | ReferenceObject;

const nullable = (type: 'string' | 'integer', extra: Partial<Schema> = {}): Schema => orNull({ type, ...extra });
const nullableTimestamp = orNull(timestamp);

/** Fields shared by every transaction record the API returns. */
const core: Record<string, Field> = {
  transaction_id: { type: 'string', format: 'uuid', description: 'Service identifier of the transaction.' },
  merchant_order_id: ref('MerchantOrderId'),
  type: { type: 'string', enum: [...TRANSACTION_TYPES] },
  status: ref('TransactionStatus'),
  amount: { type: 'integer', minimum: 1, description: 'Whole francs (XOF and XAF have no minor unit).' },
  currency: ref('Currency'),
  country_code: ref('CountryCode'),
};

const provider: Record<string, Field> = {
  provider_reference: {
    type: 'string',
    description: 'Partner reference sent to the operator; the reconciliation key in a dispute.',
  },
  provider_tx_id: nullable('string', {
    description: 'Operator transaction id; null until the customer has confirmed.',
  }),
  provider_session_id: nullable('string', { description: 'Operator session id; always null in the cash-in response.' }),
  provider_state: nullable('string', {
    description:
      'Raw operator state. A cash-in: PENDING until the operator has decided, then OK, canceled or KO. A cash-out: PENDING while ' +
      'it is sent (CREATED, INITIATED), null while AWAITING_APPROVAL or when rejected by an approver, then OK or FAILED as the operator answered.',
  }),
  provider_txn_status: nullable('string', {
    description:
      'Detailed operator code: 200 on success, 54321 (cause in failure_reason), 60019, 00017, 100004..100090.',
  }),
};

const outcome: Record<string, Field> = {
  failure_code: orNull(ref('FailureCode')),
  failure_reason: nullable('string', {
    description:
      "The operator's precise cause (e.g. \"60019\") when provider_txn_status is 54321; for a cash-out, the operator's or approver's reason; otherwise null.",
  }),
  refunded_amount: { type: 'integer', minimum: 0, description: 'Sum of the refunds that succeeded.' },
};

/** Added after v1 (additive): a client that ignores unknown fields is unaffected. */
const operator: Schema = {
  type: 'string',
  enum: [...OPERATORS],
  description:
    'The operator the payment went through (additive field): the one named in the request, or the one chosen from the number. ' +
    'SIMULATOR for a subsidiary without operator accounts.',
};
const customerAction: Field = orNull(ref('CustomerAction'));
const paymentLinkId: Schema = orNull({
  type: 'string',
  format: 'uuid',
  description:
    'The payment link the payment was made through (a cash-in paid on a link page); null for every other transaction. Additive field.',
});

const STATUS_FIELDS = [
  'transaction_id',
  'merchant_order_id',
  'type',
  'status',
  'amount',
  'currency',
  'country_code',
  'payment_method',
  'provider_reference',
  'provider_tx_id',
  'provider_session_id',
  'provider_state',
  'provider_txn_status',
  'failure_code',
  'failure_reason',
  'refunded_amount',
  'completed_at',
];

const paymentMethod: Schema = {
  type: 'string',
  enum: ['USSD_PUSH', 'WALLET_TRANSFER'],
  description: 'USSD_PUSH for a cash-in, WALLET_TRANSFER for a cash-out.',
};

/**
 * A cash-in's payment method is the push, a cash-out's the transfer: held together so neither can drift.
 * Only a cash-in can be paid through a payment link.
 */
const methodMatchesType = conditional(
  { properties: { type: { const: 'CASHOUT' } } },
  { properties: { payment_method: { const: 'WALLET_TRANSFER' }, payment_link_id: { type: 'null' } } },
  { properties: { payment_method: { const: 'USSD_PUSH' } } },
);

/** The same, and a cash-out never asks anything of the customer: its customer_action is null. */
const methodAndActionMatchType = conditional(
  { properties: { type: { const: 'CASHOUT' } } },
  {
    properties: {
      payment_method: { const: 'WALLET_TRANSFER' },
      customer_action: { type: 'null' },
      payment_link_id: { type: 'null' },
    },
  },
  { properties: { payment_method: { const: 'USSD_PUSH' } } },
);

const ACTION_WHEN =
  'Null until the operator has acknowledged the push (status CREATED or INITIATED); then what the operator asked of the customer, ' +
  '{"type": "NONE"} for a plain USSD push (the phone rings; also when the push was refused or the cash-in is decided). Additive field.';

export const transactionSchemas: Record<string, Schema> = {
  MerchantOrderId: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    pattern: '^[\\x21-\\x7E]+$',
    description:
      "The merchant's unique order id (1-100 printable ASCII characters, no spaces): the idempotency key of cash-ins and cash-outs.",
  },
  Currency: {
    type: 'string',
    enum: ['XOF', 'XAF'],
    description: 'ISO 4217. XOF for BJ BF CI GW ML NE SN TG, XAF for CM CF TD CG GQ GA.',
  },
  CountryCode: {
    type: 'string',
    pattern: '^[A-Z]{2}$',
    description: 'ISO 3166-1 alpha-2 code of a country subsidiary.',
    examples: ['CI'],
  },
  MaskedMsisdn: {
    type: 'string',
    pattern: '^\\+\\d+\\*+\\d+$',
    description: 'E.164 number with its middle digits replaced by asterisks.',
    examples: ['+22507******01'],
  },
  TransactionStatus: {
    type: 'string',
    enum: [...TRANSACTION_STATUSES],
    description:
      'CREATED → INITIATED → PENDING → SUCCESS | FAILED | EXPIRED; EXPIRED → SUCCESS (late confirmation); SUCCESS → REVERSED. ' +
      'A cash-out: CREATED | AWAITING_APPROVAL → INITIATED → SUCCESS | FAILED.',
  },
  FailureCode: {
    type: 'string',
    enum: [...FAILURE_CODES],
    description:
      'Normalised cause of a FAILED transaction: INSUFFICIENT_BALANCE (60019), INVALID_SECRET_CODE (00017), THRESHOLD_REACHED (100004-100090), ' +
      'CUSTOMER_DID_NOT_VALIDATE, OPERATOR_REJECTED, OPERATOR_UNAVAILABLE, REJECTED_BY_APPROVER (cash-out), UNKNOWN.',
  },
  Operator: operator,
  CustomerAction: {
    description:
      'What the customer must do to pay a cash-in: NONE (a USSD push: the phone rings, the customer confirms there), ' +
      "REDIRECT (pay on the operator's page at `url`, which comes back to payment_url), or OTP (dial `ussd` to get a one-time code, " +
      'then enter it on the payment page).',
    oneOf: [
      {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: { type: { type: 'string', const: 'NONE' } },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'url'],
        properties: {
          type: { type: 'string', const: 'REDIRECT' },
          url: { type: 'string', format: 'uri', examples: ['https://operator.example/pay/abc'] },
        },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'ussd'],
        properties: {
          type: { type: 'string', const: 'OTP' },
          ussd: { type: 'string', minLength: 1, examples: ['#144*82#'] },
        },
      },
    ],
  },
  CashinTransaction: {
    type: 'object',
    description:
      'A cash-in as answered by POST /payments/cashin: the cash-in fields of the v1 interface plus failure_code, failure_reason and refunded_amount, ' +
      'and the additive operator and customer_action.',
    additionalProperties: false,
    required: [
      'transaction_id',
      'merchant_order_id',
      'type',
      'status',
      'amount',
      'currency',
      'country_code',
      'msisdn',
      'payment_method',
      'payment_url',
      'provider_reference',
      'provider_tx_id',
      'provider_session_id',
      'provider_state',
      'provider_txn_status',
      'failure_code',
      'failure_reason',
      'refunded_amount',
      'created_at',
      'updated_at',
      'operator',
      'customer_action',
    ],
    properties: {
      ...core,
      type: { type: 'string', const: 'CASHIN' },
      msisdn: ref('MaskedMsisdn'),
      payment_method: { type: 'string', const: 'USSD_PUSH' },
      payment_url: {
        type: 'string',
        format: 'uri',
        description:
          'Service-hosted page following the USSD confirmation; redirect the customer there or show your own.',
      },
      ...provider,
      provider_session_id: { type: 'null', description: 'Null in this response; read it with GET /payments/{id}.' },
      ...outcome,
      created_at: { ...timestamp, description: 'ISO 8601, UTC.' },
      updated_at: { ...timestamp, description: 'ISO 8601, UTC.' },
      operator: ref('Operator'),
      customer_action: { ...customerAction, description: ACTION_WHEN },
    },
  },
  Transaction: {
    type: 'object',
    description:
      'A transaction as read by GET /payments/{id}: the status fields of the v1 interface plus failure_code, failure_reason and refunded_amount, ' +
      'and the additive operator, customer_action and payment_link_id.',
    additionalProperties: false,
    required: [...STATUS_FIELDS, 'operator', 'customer_action', 'payment_link_id'],
    properties: {
      ...core,
      payment_method: paymentMethod,
      ...provider,
      ...outcome,
      completed_at: {
        ...nullableTimestamp,
        description: 'Set on the move to a terminal state (SUCCESS, FAILED, EXPIRED, REVERSED); null before.',
      },
      operator: ref('Operator'),
      customer_action: { ...customerAction, description: `A cash-in: ${ACTION_WHEN} A cash-out: always null.` },
      payment_link_id: paymentLinkId,
    },
    ...methodAndActionMatchType,
  },
  Cashout: {
    type: 'object',
    description: 'A cash-out as answered by POST /payments/cashout. Read it later with GET /payments/{id}.',
    additionalProperties: false,
    required: [
      'transaction_id',
      'merchant_order_id',
      'type',
      'status',
      'amount',
      'currency',
      'country_code',
      'beneficiary_msisdn',
      'payment_method',
      'reason',
      'provider_reference',
      'provider_tx_id',
      'failure_code',
      'failure_reason',
      'created_at',
      'updated_at',
      'operator',
    ],
    properties: {
      ...core,
      type: { type: 'string', const: 'CASHOUT' },
      status: { type: 'string', enum: ['CREATED', 'AWAITING_APPROVAL', 'INITIATED', 'SUCCESS', 'FAILED'] },
      beneficiary_msisdn: ref('MaskedMsisdn'),
      payment_method: { type: 'string', const: 'WALLET_TRANSFER' },
      reason: nullable('string'),
      provider_reference: provider.provider_reference!,
      provider_tx_id: provider.provider_tx_id!,
      failure_code: outcome.failure_code!,
      failure_reason: outcome.failure_reason!,
      created_at: timestamp,
      updated_at: timestamp,
      operator: ref('Operator'),
    },
  },
  ExportRow: {
    type: 'object',
    description:
      'One exported transaction: the GET /payments/{id} record without customer_action, plus the masked customer number and both timestamps. ' +
      'In CSV, the columns in the order of `required`: those added later come last, operator then payment_link_id.',
    additionalProperties: false,
    required: [...STATUS_FIELDS, 'msisdn', 'created_at', 'updated_at', 'operator', 'payment_link_id'],
    properties: {
      ...core,
      payment_method: paymentMethod,
      ...provider,
      ...outcome,
      completed_at: nullableTimestamp,
      msisdn: ref('MaskedMsisdn'),
      created_at: timestamp,
      updated_at: timestamp,
      operator: ref('Operator'),
      payment_link_id: paymentLinkId,
    },
    ...methodMatchesType,
  },
};
