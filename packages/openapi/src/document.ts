import type { OpenAPIObject, SecuritySchemeObject } from 'openapi3-ts/oas31';
import { errorResponses, errorSchemas } from './errors.js';
import { headerComponents, requestIdHeader } from './headers.js';
import { paymentLinkPaths } from './paths/payment-links.js';
import { paymentPaths } from './paths/payments.js';
import { refundPaths } from './paths/refunds.js';
import { reportingPaths } from './paths/reporting.js';
import { recordSchemas } from './schemas/records.js';
import { requestSchemas } from './schemas/requests.js';
import { transactionSchemas } from './schemas/transaction.js';
import { requestSignatureParameter, withRequestSignature } from './request-signature.js';
import { webhooks } from './webhooks.js';

const AUTHENTICATION = `Every request carries three headers, and together they authenticate it:

- \`X-Service-Key\`: your API key (\`pk_…\`);
- \`X-Service-Timestamp\`: the current Unix time in seconds, as a decimal string;
- \`X-Service-Signature\`: the lowercase hex HMAC-SHA256, keyed with your API secret (\`sk_…\`), of the timestamp string immediately followed by the exact body bytes you send (the empty string for a GET).

A timestamp more than 300 s from our clock is refused (401 TIMESTAMP_OUT_OF_TOLERANCE). The same signed non-GET request sent twice is refused (401 REQUEST_REPLAYED): sign every request anew, a retry in a later second. Webhooks are signed the same way in the other direction.

The signature does not cover the method or the path: a GET's signature (of an empty body) is valid for every GET of your key for 300 s, so anyone who sees one request's headers (a proxy log, a debugging dump) can read anything for that long. Keep these headers out of logs. The optional \`X-Service-Request-Signature\` header (a parameter of every operation; the SDK sends it) also covers the method and the request target; when present it is checked (401 INVALID_SIGNATURE if wrong). Absent, nothing changes, so a captured request can still be replayed without it: it guards your requests against being moved to another path or query, not against every replay.`;

const DESCRIPTION = `Collect money from customers' mobile-money wallets in West and Central Africa (XOF, XAF): ask for a cash-in, the operator sends a USSD push to the customer's phone, the customer confirms with a secret code, and you learn the outcome by a signed webhook. Refunds, balances per country subsidiary, reconciliation exports, and cash-out.

Successful answers carry their payload in \`data\`; errors are \`{"error": {"code", "message", "details"?, "request_id"}}\`. Every answer carries \`X-Request-Id\`. Amounts are whole francs. Bodies are UTF-8 JSON of at most 64 KiB.

## Authentication

${AUTHENTICATION}

## Rate limit

Per merchant, 50 requests/s sustained with bursts of 100, shared by every gateway instance: \`RateLimit-*\` headers, and 429 RATE_LIMITED with \`Retry-After\` beyond it.

Per client address, before authentication: an address that got too many 401 answers (100 in a minute by default) is answered 429 RATE_LIMITED with \`Retry-After\` (and no \`RateLimit-*\` headers) until a minute after its first failure, whatever it sends, before its key is looked up. Fix the authentication of a client that keeps failing: the other clients behind the same address share its count.`;

const keyHeader = (name: string, description: string): SecuritySchemeObject => ({
  type: 'apiKey',
  in: 'header',
  name,
  description,
});

/** The OpenAPI 3.1 description of /api/v1, served at /api/v1/openapi.json. */
export const openApiDocument: OpenAPIObject = {
  openapi: '3.1.0',
  info: {
    title: 'Mobile-money collection API',
    version: '1.0.0',
    description: DESCRIPTION,
  },
  // Relative: resolved against where this document is served, so it names the server it came from.
  servers: [{ url: '/api/v1' }],
  security: [{ ServiceKey: [], ServiceTimestamp: [], ServiceSignature: [] }],
  tags: [
    { name: 'Payments', description: 'Cash-in (collect) and cash-out (pay out), and reading either back.' },
    { name: 'Refunds' },
    {
      name: 'Payment links',
      description:
        "A link (and its QR code) to a page where any customer pays you a cash-in, with no website of yours: each payment carries the link's payment_link_id.",
    },
    { name: 'Balances' },
    { name: 'Reconciliation' },
    { name: 'Webhooks', description: 'What was sent to you, and every delivery attempt.' },
    { name: 'Reference', description: 'This document.' },
  ],
  paths: {
    ...withRequestSignature({ ...paymentPaths, ...refundPaths, ...paymentLinkPaths, ...reportingPaths }),
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['Reference'],
        summary: 'This OpenAPI document',
        description: 'Not authenticated. A readable rendering is at /api/v1/docs.',
        security: [],
        responses: {
          200: {
            description: 'The document.',
            headers: requestIdHeader,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['openapi', 'info', 'paths'],
                  properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
                },
              },
            },
          },
        },
      },
    },
  },
  webhooks,
  components: {
    securitySchemes: {
      ServiceKey: keyHeader('X-Service-Key', 'Your API key.'),
      ServiceTimestamp: keyHeader('X-Service-Timestamp', 'Unix time in seconds; at most 300 s from our clock.'),
      ServiceSignature: keyHeader(
        'X-Service-Signature',
        'hex(HMAC-SHA256(api_secret, timestamp + raw body)). See also the optional X-Service-Request-Signature parameter, which covers the method and target too.',
      ),
    },
    schemas: { ...transactionSchemas, ...requestSchemas, ...recordSchemas, ...errorSchemas },
    responses: errorResponses,
    headers: headerComponents,
    parameters: { RequestSignature: requestSignatureParameter },
  },
};
