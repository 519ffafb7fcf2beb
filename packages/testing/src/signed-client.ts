import { signPayload } from '@mm/domain';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export interface SignOptions {
  timestamp?: string;
  contentType?: string | null;
  /** Send these headers instead of the computed ones (for authentication failure tests). */
  headers?: Record<string, string>;
  /** Added to the computed headers (e.g. Idempotency-Key). */
  extraHeaders?: Record<string, string>;
  secretOverride?: string;
}

/** A merchant's HTTP client: signs timestamp + exact body bytes as the interface requires. */
export function signedClient(baseUrl: string, apiKey: string, apiSecret: string, send: typeof fetch = fetch) {
  return async function call(
    method: string,
    path: string,
    body?: unknown,
    opts: SignOptions = {},
  ): Promise<ApiResponse> {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const timestamp = opts.timestamp ?? String(Math.floor(Date.now() / 1000));
    const headers: Record<string, string> = opts.headers ?? {
      'X-Service-Key': apiKey,
      'X-Service-Timestamp': timestamp,
      'X-Service-Signature': signPayload(opts.secretOverride ?? apiSecret, timestamp, text),
    };
    Object.assign(headers, opts.extraHeaders ?? {});
    if (text && opts.contentType !== null) headers['Content-Type'] = opts.contentType ?? 'application/json';
    const res = await send(`${baseUrl}${path}`, { method, headers, body: text || undefined });
    const raw = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = null;
    }
    return { status: res.status, headers: res.headers, body: parsed, text: raw };
  };
}
