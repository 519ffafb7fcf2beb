import type { PathsObject } from 'openapi3-ts/oas31';
import { errorResponse } from '../errors.js';
import { okHeaders, replayedHeaders } from '../headers.js';
import { dataOf, jsonBody, readErrors, writeErrors } from './shapes.js';

export const paymentPaths: PathsObject = {
  '/payments/cashin': {
    post: {
      operationId: 'createCashin',
      tags: ['Payments'],
      summary: 'Collect a payment from a customer wallet (USSD push)',
      description:
        'Records the cash-in and has the operator send a USSD push to the customer, who confirms with a secret code. ' +
        'The answer waits (at most CASHIN_ACK_WAIT_MS, 5 s) for the operator to acknowledge the push: 202 with status PENDING, ' +
        'or with the state reached by then (CREATED, INITIATED, or FAILED if the operator refused the push). The outcome comes by webhook ' +
        '(transaction.status_changed), and can be read with GET /payments/{id}.\n\n' +
        'Idempotent on merchant_order_id: the same order id with the same parameters answers 200 with the current state and ' +
        '`Idempotent-Replayed: true`; with other parameters 409 DUPLICATE_ORDER_ID. Each retry must be signed anew.',
      requestBody: jsonBody('CashinRequest'),
      responses: {
        202: {
          description: 'Accepted: the push is on its way (or acknowledged).',
          headers: okHeaders,
          content: dataOf('CashinTransaction'),
        },
        200: {
          description: 'The same order again: the existing transaction, in its current state.',
          headers: replayedHeaders,
          content: dataOf('CashinTransaction'),
        },
        ...writeErrors,
        409: errorResponse(409, ['DUPLICATE_ORDER_ID']),
        422: errorResponse(422, [
          'COUNTRY_NOT_SUPPORTED',
          'CURRENCY_MISMATCH',
          'AMOUNT_OUT_OF_RANGE',
          'OPERATOR_NOT_SUPPORTED',
        ]),
        503: errorResponse(503, ['OPERATOR_UNAVAILABLE', 'SERVICE_UNAVAILABLE']),
      },
    },
  },
  '/payments/cashout': {
    post: {
      operationId: 'createCashout',
      tags: ['Payments'],
      summary: 'Pay from the merchant balance to a wallet',
      description:
        'Off by default: 501 DISBURSEMENT_NOT_CONFIGURED after authentication and validation, nothing written or debited. ' +
        "When enabled, the amount is reserved from the available balance of the beneficiary's subsidiary (409 INSUFFICIENT_BALANCE otherwise) and the answer is 202. " +
        'Below CASHOUT_APPROVAL_THRESHOLD (1 000 000) it is sent at once; at or above, it waits in AWAITING_APPROVAL for a back-office approver. ' +
        "So does every cash-out that would take the merchant's cash-outs of the last 24 hours (all but FAILED ones) above CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL (3 000 000), " +
        'or those to the same beneficiary above CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL (1 000 000): splitting a payment does not avoid approval. ' +
        'The outcome comes by webhook (transaction.status_changed, type CASHOUT). Idempotent on merchant_order_id, like a cash-in.',
      requestBody: jsonBody('CashoutRequest'),
      responses: {
        202: {
          description: 'Accepted: reserved, and sent or awaiting approval.',
          headers: okHeaders,
          content: dataOf('Cashout'),
        },
        200: {
          description: 'The same order again: the existing cash-out.',
          headers: replayedHeaders,
          content: dataOf('Cashout'),
        },
        ...writeErrors,
        409: errorResponse(409, ['DUPLICATE_ORDER_ID', 'INSUFFICIENT_BALANCE']),
        422: errorResponse(422, [
          'COUNTRY_NOT_SUPPORTED',
          'CURRENCY_MISMATCH',
          'AMOUNT_OUT_OF_RANGE',
          'OPERATOR_NOT_SUPPORTED',
        ]),
        501: errorResponse(501),
        503: errorResponse(503, ['OPERATOR_UNAVAILABLE', 'SERVICE_UNAVAILABLE']),
      },
    },
  },
  '/payments/{id}': {
    get: {
      operationId: 'getPayment',
      tags: ['Payments'],
      summary: 'Read a transaction (cash-in or cash-out)',
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The transaction_id.',
          schema: { type: 'string', format: 'uuid' },
        },
      ],
      responses: {
        200: { description: 'The transaction.', headers: okHeaders, content: dataOf('Transaction') },
        ...readErrors,
        404: errorResponse(404),
      },
    },
  },
};
