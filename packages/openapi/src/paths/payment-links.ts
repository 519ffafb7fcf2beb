import type { ParameterObject, PathsObject } from 'openapi3-ts/oas31';
import { errorResponse } from '../errors.js';
import { okHeaders, replayedHeaders } from '../headers.js';
import { ref } from '../schemas/primitives.js';
import { dataOf, idempotencyKeyHeader, jsonBody, readErrors, writeErrors } from './shapes.js';

const linkId: ParameterObject = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The payment_link_id.',
  schema: { type: 'string', format: 'uuid' },
};

/** Payment links (docs/payment-links.md): a page at /l/{slug} where any customer pays a cash-in. */
export const paymentLinkPaths: PathsObject = {
  '/payment-links': {
    post: {
      operationId: 'createPaymentLink',
      tags: ['Payment links'],
      summary: 'Create a payment link and its QR code',
      description:
        'Answers the link with its address (url) and its QR code (qr_code.png, qr_code.svg), status ACTIVE. ' +
        'Either amount, or both min_amount and max_amount, within AMOUNT_MIN..AMOUNT_MAX (422 AMOUNT_OUT_OF_RANGE otherwise); ' +
        'max_payments only with reusable: true; expires_at in the future. Bad input is a 400 VALIDATION_ERROR naming each field, and nothing is written.\n\n' +
        'Send an Idempotency-Key to make a retry safe: without one, the same request sent twice (signed anew) makes two links.',
      parameters: [idempotencyKeyHeader('link, in its state now')],
      requestBody: jsonBody('PaymentLinkRequest'),
      responses: {
        201: { description: 'Created: the link, ACTIVE.', headers: okHeaders, content: dataOf('PaymentLink') },
        200: {
          description: 'The same Idempotency-Key and body again: the link the first request made, in its state now.',
          headers: replayedHeaders,
          content: dataOf('PaymentLink'),
        },
        ...writeErrors,
        409: errorResponse(409, ['IDEMPOTENCY_KEY_REUSED']),
        422: errorResponse(422, ['COUNTRY_NOT_SUPPORTED', 'AMOUNT_OUT_OF_RANGE']),
      },
    },
    get: {
      operationId: 'listPaymentLinks',
      tags: ['Payment links'],
      summary: 'List your payment links, newest first',
      description:
        'Paged: has_more tells whether links come after the last one; ask for them with starting_after set to its payment_link_id.',
      parameters: [
        {
          name: 'status',
          in: 'query',
          required: false,
          description: 'Only links in this status.',
          schema: ref('PaymentLinkStatus'),
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        },
        {
          name: 'starting_after',
          in: 'query',
          required: false,
          description: 'The payment_link_id of the last link of the previous page.',
          schema: { type: 'string', format: 'uuid' },
        },
      ],
      responses: {
        200: {
          description: 'The links.',
          headers: okHeaders,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                required: ['data', 'has_more'],
                properties: {
                  data: { type: 'array', items: ref('PaymentLink') },
                  has_more: { type: 'boolean', description: 'More links follow the last one of data.' },
                },
              },
            },
          },
        },
        ...readErrors,
      },
    },
  },
  '/payment-links/{id}': {
    get: {
      operationId: 'getPaymentLink',
      tags: ['Payment links'],
      summary: 'Read a payment link, with its payments counts and the total collected',
      parameters: [linkId],
      responses: {
        200: { description: 'The link.', headers: okHeaders, content: dataOf('PaymentLink') },
        ...readErrors,
        404: errorResponse(404),
      },
    },
  },
  '/payment-links/{id}/deactivate': {
    post: {
      operationId: 'deactivatePaymentLink',
      tags: ['Payment links'],
      summary: 'Deactivate a payment link',
      description:
        'Body {} or {"payment_link_id": <the same id>}. The link stops taking payments at once (a payment already in progress goes on to its end) and never takes one again. ' +
        'Answers the link, status INACTIVE; deactivating it again answers the same.',
      parameters: [linkId],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              properties: {
                payment_link_id: {
                  type: 'string',
                  format: 'uuid',
                  description:
                    'The id of the link in the path (recommended): the signature covers the body, not the path, so two deactivations of {} signed in the same second are one request to the replay guard.',
                },
              },
            },
          },
        },
      },
      responses: {
        200: { description: 'The link, INACTIVE.', headers: okHeaders, content: dataOf('PaymentLink') },
        ...writeErrors,
        404: errorResponse(404),
      },
    },
  },
};
