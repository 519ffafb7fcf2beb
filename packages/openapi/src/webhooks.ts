import type { ParameterObject, PathItemObject, SchemaObject } from 'openapi3-ts/oas31';
import { ref } from './schemas/primitives.js';

const header = (name: string, description: string, schema: SchemaObject): ParameterObject => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

/** What the service sends with every webhook: the v1 interface's headers plus X-Service-Event-Id (docs/decisions.md §9). */
const WEBHOOK_HEADERS: ParameterObject[] = [
  header(
    'X-Service-Timestamp',
    'Unix time of sending, in seconds. Refuse (401) a timestamp more than 300 s from your clock.',
    { type: 'string', pattern: '^\\d+$' },
  ),
  header(
    'X-Service-Signature',
    'Lowercase hex HMAC-SHA256, keyed with the secret of your newest active API key, of X-Service-Timestamp immediately followed by the raw body. ' +
      'Recompute it over the bytes received and compare in constant time.',
    { type: 'string', pattern: '^[0-9a-f]{64}$' },
  ),
  header('X-Service-Event-Id', 'The event_id of the body: the same on every retry of one event.', {
    type: 'string',
    format: 'uuid',
  }),
  header('User-Agent', 'Service-Webhook/1.0', { type: 'string', const: 'Service-Webhook/1.0' }),
];

const DELIVERY =
  "Delivered to the transaction's notify_url, or to your default webhook URL. A 2xx within 10 s is a success; anything else is retried " +
  'after 1 min, 5 min, 15 min, 1 h, 6 h and 24 h (7 attempts), then abandoned (visible in GET /webhook-events; the service can re-send it). ' +
  "One transaction's events arrive in order. A delivery may arrive more than once: handle events idempotently by event_id. " +
  'Answer within 3 seconds and process asynchronously.';

function webhook(operationId: string, summary: string, schema: string): PathItemObject {
  return {
    post: {
      operationId,
      summary,
      description: DELIVERY,
      security: [],
      parameters: WEBHOOK_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
      responses: {
        '2XX': { description: 'Received (answer before processing).' },
        '401': {
          description:
            'Signature or timestamp refused: retried on the schedule, so a clock or secret problem can be fixed in time.',
        },
      },
    },
  };
}

export const webhooks: Record<string, PathItemObject> = {
  'transaction.status_changed': webhook(
    'transactionStatusChanged',
    'A transaction reached SUCCESS, FAILED, EXPIRED or REVERSED',
    'TransactionStatusChangedEvent',
  ),
  'refund.status_changed': webhook(
    'refundStatusChanged',
    'A refund became SUCCESS or FAILED',
    'RefundStatusChangedEvent',
  ),
};
