import type { PathsObject } from 'openapi3-ts/oas31';
import { errorResponse } from '../errors.js';
import { okHeaders, replayedHeaders } from '../headers.js';
import { dataOf, idempotencyKeyHeader, jsonBody, readErrors, writeErrors } from './shapes.js';

export const refundPaths: PathsObject = {
  '/refunds': {
    post: {
      operationId: 'createRefund',
      tags: ['Refunds'],
      summary: 'Refund a successful cash-in, in whole or in part',
      description:
        'Only a SUCCESS cash-in can be refunded (409 INVALID_STATE otherwise: a cash-out, or a cash-in in another state, REVERSED included). Several partial refunds are allowed ' +
        'while the refunds that are not FAILED stay within the amount (422 REFUND_EXCEEDS_AMOUNT otherwise, checked atomically). ' +
        'The amount is reserved from the available balance (409 INSUFFICIENT_BALANCE when it cannot cover it). The refund becomes SUCCESS or FAILED ' +
        '(webhook refund.status_changed); when refunds that succeeded cover the whole amount the cash-in becomes REVERSED (webhook transaction.status_changed).',
      parameters: [idempotencyKeyHeader('refund')],
      requestBody: jsonBody('RefundRequest'),
      responses: {
        202: { description: 'Accepted: the refund is PENDING.', headers: okHeaders, content: dataOf('Refund') },
        200: {
          description: 'The same Idempotency-Key and body again: the existing refund.',
          headers: replayedHeaders,
          content: dataOf('Refund'),
        },
        ...writeErrors,
        404: errorResponse(404),
        409: errorResponse(409, ['INVALID_STATE', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_REUSED']),
        422: errorResponse(422, ['REFUND_EXCEEDS_AMOUNT']),
      },
    },
  },
  '/refunds/{id}': {
    get: {
      operationId: 'getRefund',
      tags: ['Refunds'],
      summary: 'Read a refund',
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The refund_id.',
          schema: { type: 'string', format: 'uuid' },
        },
      ],
      responses: {
        200: { description: 'The refund.', headers: okHeaders, content: dataOf('Refund') },
        ...readErrors,
        404: errorResponse(404),
      },
    },
  },
};
