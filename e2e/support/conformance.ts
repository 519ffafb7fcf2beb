import type { IncomingHttpHeaders } from 'node:http';
import { openApiDocument } from '@mm/openapi';
import { OpenApiConformance, type ApiResponse, type SignOptions } from '@mm/testing';

type Api = (method: string, path: string, body?: unknown, opts?: SignOptions) => Promise<ApiResponse>;

/** The documented operations, as `METHOD template` with the concrete request a test sends for each. */
export interface Operation {
  method: 'GET' | 'POST';
  template: string;
  path: string;
  body?: () => unknown;
}

/** Whether the document's 200 answer to `POST template` is a replay, marked by the Idempotent-Replayed header. */
function marksReplays(template: string): boolean {
  const ok = openApiDocument.paths?.[template]?.post?.responses?.['200'] as { headers?: object } | undefined;
  return ok?.headers !== undefined && 'Idempotent-Replayed' in ok.headers;
}

/**
 * Sends requests and checks every answer against the OpenAPI document on the spot (so a failure names
 * the request), and every body the gateway accepted against the documented request schema.
 */
export class ConformanceClient {
  readonly checker = new OpenApiConformance(openApiDocument);

  async send(api: Api, op: Operation, opts?: SignOptions): Promise<ApiResponse> {
    const body = op.body?.();
    const res = await api(op.method, `/api/v1${op.path}`, body, opts);
    expect({
      request: `${op.method} ${op.path}`,
      status: res.status,
      problems: this.checker.checkResponse(op.method, op.template, res),
    }).toEqual({ request: `${op.method} ${op.path}`, status: res.status, problems: [] });
    if (res.status < 300 && body !== undefined && typeof body !== 'string') {
      expect(this.checker.checkRequestBody(op.method, op.template, body)).toEqual([]);
    }
    return res;
  }

  /** Sends `op` and expects `status`, the answer conforming to the document. */
  async expect(api: Api, op: Operation, status: number, opts?: SignOptions): Promise<ApiResponse> {
    const res = await this.send(api, op, opts);
    expect({
      request: `${op.method} ${op.path}`,
      status: res.status,
      body: res.status === status ? undefined : res.text,
    }).toEqual({ request: `${op.method} ${op.path}`, status, body: undefined });
    // The document marks a replayed answer (200 to a POST that creates a record) with Idempotent-Replayed; a
    // new record never carries it, nor does the 200 of a POST that creates nothing (a deactivation).
    if (op.method === 'POST' && status < 300)
      expect(res.headers.get('idempotent-replayed')).toBe(status === 200 && marksReplays(op.template) ? 'true' : null);
    return res;
  }

  checkWebhook(headers: IncomingHttpHeaders, rawBody: string): string[] {
    const h = new Headers();
    for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') h.set(k, v);
    const body = JSON.parse(rawBody) as { event: string };
    return this.checker.checkWebhook(body.event, h, body);
  }
}
