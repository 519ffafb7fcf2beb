import { Validator } from '@seriousme/openapi-schema-validator';
import type { OperationObject, ResponseObject } from 'openapi3-ts/oas31';
import { ERROR_CODES, ERROR_STATUS, FAILURE_CODES, TRANSACTION_STATUSES } from '@mm/domain';
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
    const result = await validator.validate(structuredClone(openApiDocument) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('resolves every reference inside itself', () => {
    const refs = [...new Set(refsOf(openApiDocument))];
    expect(refs.length).toBeGreaterThan(20);
    const missing = refs.filter((ref) => ref.replace(/^#\//, '').split('/').reduce<unknown>((n, p) => (n as Record<string, unknown>)?.[p], openApiDocument) === undefined);
    expect(missing).toEqual([]);
  });

  it('gives every operation a unique operationId, and the three authentication headers as one requirement', () => {
    const ids = Object.values(openApiDocument.paths ?? {}).flatMap((item) => Object.values(item).map((op) => (op as { operationId: string }).operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(openApiDocument.security).toEqual([{ ServiceKey: [], ServiceTimestamp: [], ServiceSignature: [] }]);
    expect(Object.values(openApiDocument.components?.securitySchemes ?? {}).map((s) => 'name' in s && s.name)).toEqual(['X-Service-Key', 'X-Service-Timestamp', 'X-Service-Signature']);
  });

  it('documents the optional X-Service-Request-Signature on every authenticated operation, and only there', () => {
    const ops = Object.entries(openApiDocument.paths ?? {}).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op: op as OperationObject })));
    const withIt = ops.filter(({ op }) => (op.parameters ?? []).some((p) => '$ref' in p && p.$ref === '#/components/parameters/RequestSignature'));
    expect(withIt.map(({ method, path }) => `${method} ${path}`)).toEqual(ops.filter(({ op }) => op.security === undefined).map(({ method, path }) => `${method} ${path}`));
    expect(withIt.length).toBeGreaterThan(5);
    expect(openApiDocument.components?.parameters?.RequestSignature).toMatchObject({ name: 'X-Service-Request-Signature', in: 'header', required: false });
  });

  it('names every error code, failure code and status of the domain, and each error code under its own status', () => {
    const schemas = openApiDocument.components!.schemas as Record<string, { enum: string[] }>;
    expect(schemas.ErrorCode!.enum).toEqual([...ERROR_CODES]);
    expect(schemas.FailureCode!.enum).toEqual([...FAILURE_CODES]);
    expect(schemas.TransactionStatus!.enum).toEqual([...TRANSACTION_STATUSES]);
    const responses = openApiDocument.components!.responses as Record<string, ResponseObject>;
    const codesOf = (name: string) => (responses[name]!.content!['application/json']!.schema as { properties: { error: { properties: { code: { enum: string[] } } } } })
      .properties.error.properties.code.enum;
    expect(codesOf('Unauthorized')).toEqual(['AUTHENTICATION_REQUIRED', 'INVALID_API_KEY', 'INVALID_SIGNATURE', 'TIMESTAMP_OUT_OF_TOLERANCE', 'REQUEST_REPLAYED']);
    expect(codesOf('Conflict').sort()).toEqual(['DUPLICATE_ORDER_ID', 'IDEMPOTENCY_KEY_REUSED', 'INSUFFICIENT_BALANCE', 'INVALID_STATE']);
    expect(ERROR_STATUS.REFUND_EXCEEDS_AMOUNT).toBe(422);
    expect(ERROR_STATUS.DISBURSEMENT_NOT_CONFIGURED).toBe(501);
  });
});
