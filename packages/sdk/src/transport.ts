import { apiErrorOf, ConnectionError, RateLimitError, type MobileMoneyError } from './errors.js';
import { REQUEST_SIGNATURE_HEADER, sign, signRequest, unixSeconds } from './signature.js';

export interface TransportOptions {
  apiKey: string;
  apiSecret: string;
  /** The service's address, e.g. https://pay.example.com (the client adds /api/v1). */
  baseUrl: string;
  /** Bound on each attempt, answer included (a cash-in waits up to 5 s for the operator). Default 30 000. */
  timeoutMs?: number;
  /**
   * Attempts after the first when there is no answer, a 429, or a 5xx. Safe: cash-ins and cash-outs are
   * idempotent on merchant_order_id, refunds and payment links carry an Idempotency-Key, reads and a link's
   * deactivation change nothing twice. Default 2.
   */
  maxRetries?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** The clock that stamps X-Service-Timestamp. */
  now?: () => number;
}

export interface Call {
  method: 'GET' | 'POST';
  /** Under /api/v1, e.g. /payments/cashin */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const MAX_DELAY_MS = 20_000;

/** Signs, sends and retries the requests of one merchant key. */
export class Transport {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  /** The second last signed in, and the signatures of the non-GET requests signed in it. */
  private second = '';
  private readonly signedThisSecond = new Set<string>();

  constructor(private readonly o: TransportOptions) {
    if (!o.apiKey || !o.apiSecret) throw new TypeError('apiKey and apiSecret are required');
    this.baseUrl = `${o.baseUrl.replace(/\/+$/, '')}/api/v1`;
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.maxRetries = o.maxRetries ?? 2;
    this.fetch = o.fetch ?? globalThis.fetch;
    this.now = o.now ?? Date.now;
  }

  /** The answer of a successful call (2xx), its body not yet read; any other outcome is thrown as a typed error. */
  async send(call: Call): Promise<Response> {
    const body = call.body === undefined ? '' : JSON.stringify(call.body);
    const url = this.urlOf(call);
    for (let attempt = 0; ; attempt++) {
      const { timestamp, signature } = await this.signature(call.method, body);
      const outcome = await this.attempt(call, url, body, timestamp, signature);
      if (outcome instanceof Response) return outcome;
      if (attempt >= this.maxRetries || !retried(outcome)) throw outcome;
      await delay(this.retryDelayMs(attempt, outcome, timestamp));
    }
  }

  /**
   * The service refuses a non-GET request whose signature it has already seen (REQUEST_REPLAYED), and a
   * signature covers only the timestamp and the body: the same body sent twice in one second, e.g. a
   * cash-in asked again to read its state, would be refused. This client waits for the next second instead
   * (GETs are never refused as replays). Other processes using the same key are not seen from here.
   */
  private async signature(method: Call['method'], body: string): Promise<{ timestamp: string; signature: string }> {
    for (;;) {
      const nowMs = this.now();
      const timestamp = unixSeconds(nowMs);
      const signature = sign(this.o.apiSecret, timestamp, body);
      if (method === 'GET') return { timestamp, signature };
      if (timestamp !== this.second) {
        this.second = timestamp;
        this.signedThisSecond.clear();
      }
      if (!this.signedThisSecond.has(signature)) {
        this.signedThisSecond.add(signature);
        return { timestamp, signature };
      }
      await delay((Number(timestamp) + 1) * 1000 - nowMs);
    }
  }

  private async attempt(
    call: Call,
    url: string,
    body: string,
    timestamp: string,
    signature: string,
  ): Promise<Response | MobileMoneyError> {
    const headers: Record<string, string> = {
      ...call.headers,
      'X-Service-Key': this.o.apiKey,
      'X-Service-Timestamp': timestamp,
      'X-Service-Signature': signature,
      // Also binds the signature to the method and the target, which X-Service-Signature does not cover:
      // the path and query exactly as fetch puts them on the request line (the URL's own serialisation).
      [REQUEST_SIGNATURE_HEADER]: signRequest(this.o.apiSecret, timestamp, call.method, requestTarget(url), body),
      Accept: 'application/json',
    };
    if (body) headers['Content-Type'] = 'application/json';
    // The timeout bounds the wait for the answer's headers, not the body: an export streams for as long
    // as it has rows.
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`no answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    let res: Response;
    try {
      res = await this.fetch(url, { method: call.method, headers, body: body || undefined, signal: controller.signal });
    } catch (err) {
      return new ConnectionError(`${call.method} ${call.path}: no answer (${(err as Error).message})`, err);
    } finally {
      clearTimeout(timer);
    }
    if (res.ok) return res;
    const text = await readBody(res, call).catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return apiErrorOf(res.status, parsed, res.headers);
  }

  /**
   * Exponential from 1 s, at least what a 429 asks, and always into a later second than the last attempt's
   * timestamp: the same body signed in the same second would be refused as a replay.
   */
  private retryDelayMs(attempt: number, outcome: MobileMoneyError, timestamp: string): number {
    const backoff = 1000 * 2 ** attempt;
    const asked = outcome instanceof RateLimitError ? outcome.retryAfterS * 1000 : 0;
    const nextSecond = (Number(timestamp) + 1) * 1000 - this.now();
    return Math.min(Math.max(backoff, asked, nextSecond), MAX_DELAY_MS);
  }

  private urlOf(call: Call): string {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const qs = query.toString();
    return `${this.baseUrl}${call.path}${qs ? `?${qs}` : ''}`;
  }
}

/** The whole body of an answer; a connection cut while it arrives is a ConnectionError like any other. */
export async function readBody(res: Response, call: Pick<Call, 'method' | 'path'>): Promise<string> {
  try {
    return await res.text();
  } catch (err) {
    throw new ConnectionError(`${call.method} ${call.path}: the answer was cut short (${(err as Error).message})`, err);
  }
}

/** The JSON body of a successful answer. */
export async function readJson<T>(res: Response, call: Pick<Call, 'method' | 'path'>): Promise<T> {
  const text = await readBody(res, call);
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new ConnectionError(`${call.method} ${call.path}: the answer is not JSON`, err);
  }
}

function requestTarget(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

function retried(outcome: MobileMoneyError): boolean {
  return outcome instanceof ConnectionError || ('status' in outcome && RETRIED_STATUSES.has(outcome.status as number));
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0)));
