import type { PathsObject, SchemaObject } from 'openapi3-ts/oas31';
import { okHeaders } from '../headers.js';
import { ref } from '../schemas/primitives.js';
import { transactionSchemas } from '../schemas/transaction.js';
import { dataOf, readErrors } from './shapes.js';

/** The CSV header line: the ExportRow fields, in their order. */
const CSV_HEADER = (transactionSchemas.ExportRow!.required ?? []).join(',');
const day = (description: string): SchemaObject => ({
  type: 'string',
  format: 'date',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description,
});

/** Balances, the reconciliation export and the merchant's own view of its webhook deliveries. */
export const reportingPaths: PathsObject = {
  '/balances': {
    get: {
      operationId: 'listBalances',
      tags: ['Balances'],
      summary: 'Balances, one per active country subsidiary',
      description:
        'One entry per active subsidiary of the service, zeros where the merchant has no activity. Computed from a double-entry journal ' +
        'written in the same database transaction as each state change.',
      responses: {
        200: { description: 'The balances.', headers: okHeaders, content: dataOf('Balance', true) },
        ...readErrors,
      },
    },
  },
  '/transactions/export': {
    get: {
      operationId: 'exportTransactions',
      tags: ['Reconciliation'],
      summary: 'Export transactions for reconciliation (JSON or CSV)',
      description:
        'Your transactions created from date_from 00:00 UTC to the end of date_to (at most 366 days, both included), ordered by created_at ' +
        'then transaction_id. Streamed from one database cursor (one consistent snapshot, flat memory for any size). If it fails once started the ' +
        'connection is cut before the final chunk: a failed download, never a shorter file that looks complete.\n\n' +
        'CSV: a header line with the ExportRow field names in order, RFC 4180 (CRLF, quoted cells), empty cell for null; a text cell starting with ' +
        "= + - @, a tab or CR is prefixed with ' (spreadsheet formula injection).",
      parameters: [
        { name: 'date_from', in: 'query', required: true, schema: day('First day, UTC, included.') },
        { name: 'date_to', in: 'query', required: true, schema: day('Last day, UTC, included; not before date_from.') },
        { name: 'country_code', in: 'query', required: false, schema: { type: 'string', pattern: '^[A-Z]{2}$' } },
        {
          name: 'format',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
        },
      ],
      responses: {
        200: {
          description: 'The rows: JSON by default, CSV (as an attachment) with format=csv.',
          headers: {
            ...okHeaders,
            'Content-Disposition': {
              description: 'With format=csv: attachment; filename="transactions_<date_from>_<date_to>.csv".',
              schema: {
                type: 'string',
                pattern: '^attachment; filename="transactions_\\d{4}-\\d{2}-\\d{2}_\\d{4}-\\d{2}-\\d{2}\\.csv"$',
              },
            },
          },
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                required: ['data', 'meta'],
                properties: { data: { type: 'array', items: ref('ExportRow') }, meta: ref('ExportMeta') },
              },
            },
            'text/csv': { schema: { type: 'string', pattern: `^${CSV_HEADER}\r\n` } },
          },
        },
        ...readErrors,
      },
    },
  },
  '/webhook-events': {
    get: {
      operationId: 'listWebhookEvents',
      tags: ['Webhooks'],
      summary: 'Your webhook events and every delivery attempt',
      description: 'Newest first. Each event with its delivery state and every attempt (status code, latency, error).',
      parameters: [
        {
          name: 'transaction_id',
          in: 'query',
          required: false,
          description: 'Only the events of this transaction.',
          schema: { type: 'string', format: 'uuid' },
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
        },
      ],
      responses: {
        200: { description: 'The events.', headers: okHeaders, content: dataOf('WebhookEvent', true) },
        ...readErrors,
      },
    },
  },
};
