import { OPERATORS } from '@mm/domain';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { conditional, ref, text } from './primitives.js';

type Schema = SchemaObject;

const httpUrl: Schema = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description: 'An http(s) URL.',
};
const msisdn = (who: string): Schema => ({
  ...text(20, `${who} number in E.164 (e.g. +2250707000001); its country must be an active subsidiary.`),
  examples: ['+2250707000001'],
});
// JSON numbers beyond 2^53 lose digits in transit: refused rather than rounded.
const safeInteger: Schema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const operator: Schema = {
  type: 'string',
  enum: [...OPERATORS],
  description:
    "Operator to send the payment to; without it, chosen from the customer's number (longest prefix among the subsidiary's enabled operator accounts). " +
    'Answers 422 OPERATOR_NOT_SUPPORTED when no enabled operator serves the number, 503 OPERATOR_UNAVAILABLE with Retry-After when its account is disabled or marked down.',
};
const amount: Schema = {
  ...safeInteger,
  description:
    'Whole francs, within AMOUNT_MIN..AMOUNT_MAX (100..5 000 000 by default; outside: 422 AMOUNT_OUT_OF_RANGE). JSON numbers are not coerced: "5000" is refused.',
};
const metadata: Schema = {
  type: 'object',
  maxProperties: 10,
  description: 'Free data, at most 10 keys; values string (at most 500 characters), number or boolean.',
  propertyNames: { minLength: 1, maxLength: 100 },
  additionalProperties: {
    oneOf: [
      text(500),
      { type: 'number', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      { type: 'boolean' },
    ],
  },
};

/** Request bodies: unknown fields are refused (400 VALIDATION_ERROR), so every schema is closed. */
export const requestSchemas: Record<string, Schema> = {
  CashinRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['merchant_order_id', 'amount', 'customer_msisdn'],
    properties: {
      merchant_order_id: ref('MerchantOrderId'),
      amount,
      currency: {
        type: 'string',
        pattern: '^[A-Z]{3}$',
        description:
          "Deduced from the country when omitted; when given it must be the country's (else 422 CURRENCY_MISMATCH).",
      },
      customer_msisdn: msisdn('The customer'),
      country_code: {
        type: 'string',
        pattern: '^[A-Z]{2}$',
        description:
          "Deduced from the number when omitted; when given it must be the number's country (else 400 VALIDATION_ERROR on country_code).",
      },
      motif: text(255, 'Text shown to the customer in the USSD push.'),
      return_url: {
        ...httpUrl,
        description: 'Where the hosted payment page sends the customer once the payment is decided.',
      },
      notify_url: {
        ...httpUrl,
        description: "Webhook URL of this transaction, instead of the merchant's default one.",
      },
      operator,
      metadata,
    },
  },
  CashoutRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['merchant_order_id', 'amount', 'beneficiary_msisdn'],
    properties: {
      merchant_order_id: ref('MerchantOrderId'),
      amount: {
        ...amount,
        description: `${amount.description} At or above CASHOUT_APPROVAL_THRESHOLD (1 000 000) it waits for a back-office approver, as it does past the merchant's or the beneficiary's 24-hour cash-out total.`,
      },
      beneficiary_msisdn: msisdn('The beneficiary'),
      currency: {
        type: 'string',
        pattern: '^[A-Z]{3}$',
        description: "Deduced from the beneficiary's country when omitted.",
      },
      reason: text(255, 'Free-text purpose.'),
      notify_url: httpUrl,
      operator,
    },
  },
  RefundRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['transaction_id'],
    properties: {
      transaction_id: { type: 'string', format: 'uuid', description: 'The SUCCESS cash-in to refund.' },
      amount: {
        ...safeInteger,
        description: 'Omitted: the whole transaction amount (not what is left after partial refunds).',
      },
      reason: text(255),
    },
  },
  PaymentLinkRequest: {
    type: 'object',
    description:
      'A payment link (docs/payment-links.md): either a fixed `amount`, or `min_amount` and `max_amount` (min_amount ≤ max_amount, else 400 VALIDATION_ERROR) ' +
      'within which the customer types the amount. The same request sent twice makes two links unless it carries an Idempotency-Key.',
    additionalProperties: false,
    required: ['description', 'country_code'],
    properties: {
      description: text(255, 'What the customer pays for, shown on the link page.'),
      country_code: {
        type: 'string',
        pattern: '^[A-Z]{2}$',
        description:
          'The subsidiary that collects; the currency follows. Not an active subsidiary: 422 COUNTRY_NOT_SUPPORTED.',
      },
      amount: { ...amount, description: `A fixed amount. ${amount.description}` },
      min_amount: {
        ...amount,
        description: `The least the customer may type; with max_amount, instead of amount. ${amount.description}`,
      },
      max_amount: {
        ...amount,
        description: `The most the customer may type; with min_amount, instead of amount. ${amount.description}`,
      },
      reusable: {
        type: 'boolean',
        // No `default` keyword: generated clients would make the field required. Omitted is false.
        description:
          'false (also when omitted): the link takes one payment; true: it takes payments until max_payments or expires_at.',
      },
      max_payments: {
        type: 'integer',
        minimum: 1,
        maximum: 1_000_000,
        description:
          'Reusable links only (with reusable: true, else 400 VALIDATION_ERROR): at most this many successful or in-progress payments. Omitted: no cap.',
      },
      expires_at: {
        type: 'string',
        format: 'date-time',
        description: 'In the future: after it the link takes no payment. Omitted: it does not expire.',
      },
      redirect_url: {
        ...httpUrl,
        description: 'Where the customer is sent once the payment has ended.',
      },
      metadata: { ...metadata, description: `${metadata.description} Copied onto each payment's transaction.` },
    },
    allOf: [
      // A fixed amount, or both bounds: never both, never neither.
      conditional(
        { required: ['amount'] },
        { not: { anyOf: [{ required: ['min_amount'] }, { required: ['max_amount'] }] } },
        { required: ['min_amount', 'max_amount'] },
      ),
      // A cap only on a reusable link.
      conditional(
        { required: ['max_payments'] },
        { required: ['reusable'], properties: { reusable: { const: true } } },
        {},
      ),
    ],
  },
};
