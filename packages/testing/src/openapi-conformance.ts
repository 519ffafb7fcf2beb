import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type {
  HeaderObject,
  MediaTypeObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';

/** What was received: a status, its headers and the body's text. */
export interface ReceivedResponse {
  status: number;
  headers: Headers;
  text: string;
}

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;
const schemaId = (name: string) => `urn:mm:openapi:schema:${name}`;

/** A copy of `value` whose schema references point at the component schemas registered under their own ids. */
function retarget<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) =>
    key === '$ref' && typeof v === 'string' && SCHEMA_REF.test(v) ? schemaId(SCHEMA_REF.exec(v)![1]!) : v,
  ) as T;
}

/**
 * Checks real answers (and webhooks) against the OpenAPI document with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1), and remembers which documented operation/status pairs were checked, so a test
 * can fail on any the document promises and nothing exercised.
 */
export class OpenApiConformance {
  // strictTypes and strictRequired off: OpenAPI schemas state `type` and `properties` once, on the
  // object, not again in each if/then branch.
  private readonly ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
    allErrors: true,
  });
  private readonly compiled = new Map<SchemaObject | ReferenceObject, ValidateFunction>();
  private readonly seen = new Set<string>();

  constructor(private readonly doc: OpenAPIObject) {
    addFormats.default(this.ajv);
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
      this.ajv.addSchema({ ...retarget(schema), $id: schemaId(name) });
  }

  /** Every documented "METHOD path status" and "webhook name", whether or not it was checked. */
  documented(): string[] {
    const out: string[] = [];
    for (const [path, item] of Object.entries(this.doc.paths ?? {})) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const op = item[method] as OperationObject | undefined;
        for (const status of Object.keys(op?.responses ?? {})) out.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
    for (const name of Object.keys(this.doc.webhooks ?? {})) out.push(`webhook ${name}`);
    return out;
  }

  /** What the document promises that no check has seen yet. */
  unexercised(): string[] {
    return this.documented().filter((d) => !this.seen.has(d));
  }

  /**
   * Problems of one answer of `METHOD path` (the documented path template): an undocumented status or
   * media type, a missing or wrong header, a body outside its schema. An empty list is a pass.
   */
  checkResponse(method: string, path: string, res: ReceivedResponse): string[] {
    const op = this.operation(method, path);
    if (!op) return [`${method} ${path} is not documented`];
    const response = op.responses?.[String(res.status)] as ResponseObject | ReferenceObject | undefined;
    if (!response) return [`${method} ${path} answered ${res.status}, which is not documented`];
    this.seen.add(`${method.toUpperCase()} ${path} ${res.status}`);
    const where = `${method} ${path} ${res.status}`;
    const resolved = this.resolve<ResponseObject>(response);
    return [
      ...this.checkHeaders(where, resolved.headers ?? {}, res.headers),
      ...this.checkContent(where, resolved.content ?? {}, res),
    ];
  }

  /** Problems of a request body that the gateway accepted: it must fit the documented request schema. */
  checkRequestBody(method: string, path: string, body: unknown): string[] {
    const op = this.operation(method, path);
    const media = (this.resolve(op?.requestBody ?? { content: {} }) as { content: Record<string, MediaTypeObject> })
      .content['application/json'];
    if (!media?.schema) return [`${method} ${path} documents no JSON request body`];
    return this.errorsOf(`${method} ${path} request`, media.schema, body);
  }

  /** Problems of a webhook received: its headers and body against `webhooks[name]`. */
  checkWebhook(name: string, headers: Headers, body: unknown): string[] {
    const op = this.doc.webhooks?.[name]?.post;
    if (!op) return [`webhook ${name} is not documented`];
    this.seen.add(`webhook ${name}`);
    const problems: string[] = [];
    for (const p of (op.parameters ?? []).map((x) => this.resolve<ParameterObject>(x))) {
      if (p.in !== 'header') continue;
      const value = headers.get(p.name);
      if (value === null) {
        if (p.required) problems.push(`webhook ${name}: header ${p.name} missing`);
      } else if (p.schema) problems.push(...this.errorsOf(`webhook ${name} header ${p.name}`, p.schema, value));
    }
    const media = (this.resolve(op.requestBody!) as { content: Record<string, MediaTypeObject> }).content[
      'application/json'
    ];
    return [...problems, ...this.errorsOf(`webhook ${name} body`, media!.schema!, body)];
  }

  private operation(method: string, path: string): OperationObject | undefined {
    return this.doc.paths?.[path]?.[method.toLowerCase() as 'get'] as OperationObject | undefined;
  }

  private checkHeaders(
    where: string,
    documented: Record<string, HeaderObject | ReferenceObject>,
    received: Headers,
  ): string[] {
    const problems: string[] = [];
    for (const [name, h] of Object.entries(documented)) {
      const header = this.resolve<HeaderObject>(h);
      const value = received.get(name);
      if (value === null) {
        if (header.required) problems.push(`${where}: header ${name} missing`);
        continue;
      }
      if (header.schema) problems.push(...this.errorsOf(`${where} header ${name}`, header.schema, value));
    }
    return problems;
  }

  private checkContent(where: string, content: Record<string, MediaTypeObject>, res: ReceivedResponse): string[] {
    const received = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (Object.keys(content).length === 0)
      return res.text === '' ? [] : [`${where}: a body where the document declares none`];
    const media = content[received];
    if (!media)
      return [`${where}: content type ${received || '(none)'} is not one of ${Object.keys(content).join(', ')}`];
    if (!media.schema) return [];
    let body: unknown = res.text;
    if (received === 'application/json') {
      try {
        body = JSON.parse(res.text);
      } catch {
        return [`${where}: the body is not JSON`];
      }
    }
    return this.errorsOf(`${where} body`, media.schema, body);
  }

  private errorsOf(where: string, schema: SchemaObject | ReferenceObject, value: unknown): string[] {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(retarget(schema));
      this.compiled.set(schema, validate);
    }
    return validate(value)
      ? []
      : (validate.errors ?? []).map(
          (e) => `${where}: ${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
        );
  }

  /** Follows a `#/components/...` reference of the document (responses, headers, parameters, bodies). */
  private resolve<T>(value: T | ReferenceObject): T {
    if (!value || typeof value !== 'object' || !('$ref' in value)) return value as T;
    const target = value.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], this.doc);
    if (target === undefined) throw new Error(`unresolved reference ${value.$ref}`);
    return this.resolve(target as T | ReferenceObject);
  }
}
