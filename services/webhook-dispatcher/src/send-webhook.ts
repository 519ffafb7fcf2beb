import type { ClientRequest } from 'node:http';
import type { Readable } from 'node:stream';
import axios, { isAxiosError, type AddressFamily, type AxiosResponse, type LookupAddress } from 'axios';
import { signPayload } from '@mm/domain';
import type { TargetAgent, WebhookConnections } from './connections.js';
import { connectionFailure, timedOut } from './merchant-reasons.js';
import type { ResolvedAddress } from './target-guard.js';

export const USER_AGENT = 'Service-Webhook/1.0';

export interface WebhookRequest {
  url: URL;
  /** The address the target guard checked: the connection goes there and nowhere else. */
  connectTo: ResolvedAddress;
  /** The exact JSON text that is signed and sent. */
  body: string;
  secret: string;
  eventId: string;
  timeoutMs: number;
  /** The dispatcher's kept-alive connections (connections.ts). */
  connections: WebhookConnections;
}

/** A receiver's answer body is read and dropped up to this size so that its connection is reused; past it, the connection is closed. */
export const MAX_DISCARDED_BODY_BYTES = 64 * 1024;

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  /** Why there was no answer, for the merchant (merchant-reasons.ts); null when the receiver answered. */
  error: string | null;
  /** The same for staff, in the words of the guard or the connection (addresses included). */
  errorDetail: string | null;
  success: boolean;
}

/** A lookup that always answers the checked address (axios adapts it to Node's `all` option). */
function pinnedLookup(to: ResolvedAddress) {
  return (_hostname: string, _options: object, callback: (err: Error | null, address: LookupAddress, family?: AddressFamily) => void) =>
    callback(null, { address: to.address, family: to.family });
}

/**
 * A kept-alive connection the receiver had closed while it was idle (the race every keep-alive client
 * has): reset when reused, before any answer came. Only then is the request sent again, once, on a new
 * connection (Node's documented rule, `request.reusedSocket`). A reset of a new connection, or one after
 * the answer began, is the attempt's outcome, as before.
 */
function staleConnection(err: unknown): boolean {
  if (!isAxiosError(err) || err.response) return false;
  const request = err.request as ClientRequest | undefined;
  return request?.reusedSocket === true && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
}

/**
 * Reads and drops the receiver's body, so that the connection goes back to its pool for the next
 * delivery. A body past MAX_DISCARDED_BODY_BYTES, or one still arriving at the attempt's deadline,
 * closes the connection instead: never kept in memory, never waited on past the deadline.
 */
function discardBody(body: Readable, deadline: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const close = () => body.destroy();
    const done = () => {
      deadline.removeEventListener('abort', close);
      resolve();
    };
    let bytes = 0;
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_DISCARDED_BODY_BYTES) close();
    });
    body.once('end', done);
    body.once('close', done);
    body.once('error', done);
    if (deadline.aborted) close();
    else deadline.addEventListener('abort', close, { once: true });
  });
}

/** The merchant's reason (a fixed vocabulary) and staff's detail of an attempt that got no answer. */
function describeError(err: unknown, deadlinePassed: boolean, timeoutMs: number): { error: string; errorDetail: string } {
  const code = isAxiosError(err) ? err.code : (err as NodeJS.ErrnoException | null)?.code;
  if (deadlinePassed || code === 'ECONNABORTED' || code === 'ETIMEDOUT') return { error: timedOut(timeoutMs), errorDetail: timedOut(timeoutMs) };
  const message = err instanceof Error ? err.message : String(err);
  return { error: connectionFailure(code), errorDetail: code ? `${code}: ${message}` : message };
}

/**
 * One delivery attempt: a signed POST. Never throws: any answer, a timeout or a connection error
 * is an outcome to record. Only a 2xx is a success; redirects are not followed (a 3xx is a failure,
 * and following one would bypass the target guard).
 */
export async function sendWebhook(req: WebhookRequest): Promise<SendResult> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = signPayload(req.secret, timestamp, req.body);
  // axios's `timeout` is an idle timeout on the socket; this deadline bounds the whole exchange.
  const deadline = new AbortController();
  let deadlinePassed = false;
  const timer = setTimeout(() => {
    deadlinePassed = true;
    deadline.abort();
  }, req.timeoutMs);
  const started = performance.now();
  const post = (agent: TargetAgent) =>
    axios.post<Readable>(req.url.toString(), req.body, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        'X-Service-Timestamp': timestamp,
        'X-Service-Signature': signature,
        'X-Service-Event-Id': req.eventId,
      },
      // The body is already a string: no re-serialisation, the signed bytes are the sent bytes.
      transformRequest: [(data: unknown) => data],
      // The agent connects only to the checked address (connections.ts); the request is pinned as well.
      httpAgent: agent,
      httpsAgent: agent,
      lookup: pinnedLookup(req.connectTo),
      // A proxy from the environment would make the connection somewhere other than the checked address.
      proxy: false,
      maxRedirects: 0,
      timeout: req.timeoutMs,
      signal: deadline.signal,
      validateStatus: () => true,
      // The receiver's body is not used: it is read and dropped (discardBody), never kept in memory.
      responseType: 'stream',
      decompress: false,
    });
  try {
    let res: AxiosResponse<Readable>;
    try {
      res = await post(req.connections.agentFor(req.url, req.connectTo));
    } catch (err) {
      // Within the same attempt and the same deadline: one more try, on a connection of its own.
      if (deadlinePassed || !staleConnection(err)) throw err;
      res = await post(req.connections.freshAgent(req.url, req.connectTo));
    }
    const latencyMs = Math.round(performance.now() - started);
    await discardBody(res.data, deadline.signal);
    // The receiver answered: its status code says what happened, `error` is for no answer at all.
    return { statusCode: res.status, latencyMs, error: null, errorDetail: null, success: res.status >= 200 && res.status < 300 };
  } catch (err) {
    return { statusCode: null, latencyMs: Math.round(performance.now() - started), ...describeError(err, deadlinePassed, req.timeoutMs), success: false };
  } finally {
    clearTimeout(timer);
  }
}
