import { Validator } from '@seriousme/openapi-schema-validator';
import type { OperationObject, ParameterObject, ResponseObject } from 'openapi3-ts/oas31';
import {
  ERROR_CODES,
  ERROR_STATUS,
  FAILURE_CODES,
  OPERATORS,
  PAYMENT_LINK_STATUSES,
  TRANSACTION_STATUSES,
} from '@mm/domain';
import { openApiDocument } from './document.js';

/** Every `$ref` string anywhere in the document. */
function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (official JSON schema of the specification)', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(openApiDocument) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('resolves every reference inside itself', () => {
    const refs = [...new Set(refsOf(openApiDocument))];
    expect(refs.length).toBeGreaterThan(20);
    const missing = refs.filter(
      (ref) =>
        ref
          .replace(/^#\//, '')
          .split('/')
          .reduce<unknown>((n, p) => (n as Record<string, unknown>)?.[p], openApiDocument) === undefined,
    );
    expect(missing).toEqual([]);
  });

  it('gives every operation a unique operationId, and the three authentication headers as one requirement', () => {
    const ids = Object.values(openApiDocument.paths ?? {}).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId: string }).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(openApiDocument.security).toEqual([{ ServiceKey: [], ServiceTimestamp: [], ServiceSignature: [] }]);
    expect(Object.values(openApiDocument.components?.securitySchemes ?? {}).map((s) => 'name' in s && s.name)).toEqual([
      'X-Service-Key',
      'X-Service-Timestamp',
      'X-Service-Signature',
    ]);
  });

  it('documents the optional X-Service-Request-Signature on every authenticated operation, and only there', () => {
    const ops = Object.entries(openApiDocument.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op: op as OperationObject })),
    );
    const withIt = ops.filter(({ op }) =>
      (op.parameters ?? []).some((p) => '$ref' in p && p.$ref === '#/components/parameters/RequestSignature'),
    );
    expect(withIt.map(({ method, path }) => `${method} ${path}`)).toEqual(
      ops.filter(({ op }) => op.security === undefined).map(({ method, path }) => `${method} ${path}`),
    );
    expect(withIt.length).toBeGreaterThan(5);
    expect(openApiDocument.components?.parameters?.RequestSignature).toMatchObject({
      name: 'X-Service-Request-Signature',
      in: 'header',
      required: false,
    });
  });

  it('names every error code, failure code and status of the domain, and each error code under its own status', () => {
    const schemas = openApiDocument.components!.schemas as Record<string, { enum: string[] }>;
    expect(schemas.ErrorCode!.enum).toEqual([...ERROR_CODES]);
    expect(schemas.FailureCode!.enum).toEqual([...FAILURE_CODES]);
    expect(schemas.TransactionStatus!.enum).toEqual([...TRANSACTION_STATUSES]);
    const responses = openApiDocument.components!.responses as Record<string, ResponseObject>;
    const codesOf = (name: string) =>
      (
        responses[name]!.content!['application/json']!.schema as {
          properties: { error: { properties: { code: { enum: string[] } } } };
        }
      ).properties.error.properties.code.enum;
    expect(codesOf('Unauthorized')).toEqual([
      'AUTHENTICATION_REQUIRED',
      'INVALID_API_KEY',
      'INVALID_SIGNATURE',
      'TIMESTAMP_OUT_OF_TOLERANCE',
      'REQUEST_REPLAYED',
    ]);
    expect(codesOf('Conflict').sort()).toEqual([
      'DUPLICATE_ORDER_ID',
      'IDEMPOTENCY_KEY_REUSED',
      'INSUFFICIENT_BALANCE',
      'INVALID_STATE',
    ]);
    expect(ERROR_STATUS.REFUND_EXCEEDS_AMOUNT).toBe(422);
    expect(ERROR_STATUS.DISBURSEMENT_NOT_CONFIGURED).toBe(501);
  });

  it('adds operator and customer_action without taking anything away (additive), operator from the domain list', () => {
    type Obj = {
      required: string[];
      properties: Record<string, { enum?: string[]; $ref?: string; oneOf?: { $ref?: string }[] }>;
    };
    const schemas = openApiDocument.components!.schemas as Record<string, Obj>;
    expect((schemas.Operator as unknown as { enum: string[] }).enum).toEqual([...OPERATORS]);
    for (const name of ['CashinTransaction', 'Transaction', 'Cashout', 'ExportRow']) {
      expect({
        name,
        operator: schemas[name]!.properties.operator!.$ref,
        required: schemas[name]!.required.includes('operator'),
      }).toEqual({ name, operator: '#/components/schemas/Operator', required: true });
    }
    for (const name of ['CashinTransaction', 'Transaction']) {
      expect(schemas[name]!.required).toContain('customer_action');
      expect(schemas[name]!.properties.customer_action!.oneOf).toEqual([
        { $ref: '#/components/schemas/CustomerAction' },
        { type: 'null' },
      ]);
    }
    expect(schemas.Cashout!.properties).not.toHaveProperty('customer_action');
    expect(schemas.ExportRow!.properties).not.toHaveProperty('customer_action');
    // The CSV header is the ExportRow's required list in order: the added columns come last, in the order added.
    expect(schemas.ExportRow!.required.slice(-2)).toEqual(['operator', 'payment_link_id']);
    // Optional on the webhook: an event recorded before the field existed is delivered (and retried) as it was stored.
    expect(schemas.TransactionStatusChangedEvent!.properties.operator!.$ref).toBe('#/components/schemas/Operator');
    expect(schemas.TransactionStatusChangedEvent!.required).not.toContain('operator');
    for (const name of ['CashinRequest', 'CashoutRequest']) {
      expect(schemas[name]!.properties.operator!.enum).toEqual([...OPERATORS]);
      expect(schemas[name]!.required).not.toContain('operator');
    }
  });

  it('answers the cash-in and cash-out with 422 OPERATOR_NOT_SUPPORTED and 503 OPERATOR_UNAVAILABLE (with Retry-After)', () => {
    for (const path of ['/payments/cashin', '/payments/cashout']) {
      const responses = openApiDocument.paths![path]!.post!.responses as Record<string, ResponseObject>;
      const codes = (status: string) =>
        (
          responses[status]!.content!['application/json']!.schema as {
            properties: { error: { properties: { code: { enum: string[] } } } };
          }
        ).properties.error.properties.code.enum;
      expect(codes('422')).toContain('OPERATOR_NOT_SUPPORTED');
      expect(codes('503')).toEqual(['OPERATOR_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);
      expect(responses['503']!.headers).toHaveProperty('Retry-After');
    }
    expect(ERROR_STATUS.OPERATOR_NOT_SUPPORTED).toBe(422);
    expect(ERROR_STATUS.OPERATOR_UNAVAILABLE).toBe(503);
  });

  it('describes payment links, and adds payment_link_id to the status read, the export and the webhook (additive)', () => {
    type Obj = { required: string[]; properties: Record<string, { type?: unknown; format?: string; enum?: string[] }> };
    const schemas = openApiDocument.components!.schemas as Record<string, Obj>;
    expect((schemas.PaymentLinkStatus as unknown as { enum: string[] }).enum).toEqual([...PAYMENT_LINK_STATUSES]);
    // Every field of the link always present.
    expect(schemas.PaymentLink!.required).toEqual(Object.keys(schemas.PaymentLink!.properties));
    expect(schemas.PaymentLinkRequest!.required).toEqual(['description', 'country_code']);
    for (const name of ['Transaction', 'ExportRow']) {
      expect(schemas[name]!.required).toContain('payment_link_id');
      expect(schemas[name]!.properties.payment_link_id).toMatchObject({ type: ['string', 'null'], format: 'uuid' });
    }
    // Only on the events of a payment made through a link.
    expect(schemas.TransactionStatusChangedEvent!.properties.payment_link_id).toMatchObject({ format: 'uuid' });
    expect(schemas.TransactionStatusChangedEvent!.required).not.toContain('payment_link_id');
    expect(schemas.CashinTransaction!.properties).not.toHaveProperty('payment_link_id');

    const paths = openApiDocument.paths!;
    const operations = Object.entries(paths)
      .filter(([path]) => path.startsWith('/payment-links'))
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => [
          `${method.toUpperCase()} ${path}`,
          Object.keys((op as OperationObject).responses ?? {}).sort(),
        ]),
      );
    expect(Object.fromEntries(operations)).toEqual({
      'POST /payment-links': ['200', '201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503'],
      'GET /payment-links': ['200', '400', '401', '403', '413', '429', '500', '503'],
      'GET /payment-links/{id}': ['200', '400', '401', '403', '404', '413', '429', '500', '503'],
      'POST /payment-links/{id}/deactivate': ['200', '400', '401', '403', '404', '413', '415', '429', '500', '503'],
    });
    const created = paths['/payment-links']!.post!.responses as Record<string, ResponseObject>;
    expect(
      (
        created['422']!.content!['application/json']!.schema as {
          properties: { error: { properties: { code: { enum: string[] } } } };
        }
      ).properties.error.properties.code.enum,
    ).toEqual(['COUNTRY_NOT_SUPPORTED', 'AMOUNT_OUT_OF_RANGE']);
    // The creation takes the refunds' optional Idempotency-Key, and answers a replay 200 with Idempotent-Replayed.
    const [linkKey] = paths['/payment-links']!.post!.parameters as ParameterObject[];
    const [refundKey] = paths['/refunds']!.post!.parameters as ParameterObject[];
    expect(linkKey).toEqual({ ...refundKey, description: expect.stringContaining('the same link') as string });
    expect(created['200']!.headers).toHaveProperty('Idempotent-Replayed');
    expect(openApiDocument.tags!.map((t) => t.name)).toContain('Payment links');
  });
});
