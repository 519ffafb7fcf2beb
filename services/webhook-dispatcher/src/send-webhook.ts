import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
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

/**
 * A kept-alive connection the receiver had closed while it was idle (the race every keep-alive client
 * has): reset when reused, before any answer came. Only then is the request sent again, once, on a new
 * connection (Node's documented rule, `request.reusedSocket`). A reset of a new connection, or one after
 * the answer began, is the attempt's outcome, as before.
 */
function staleConnection(err: unknown): boolean {
  const e = err as NoAnswerError;
  return e.reusedSocket === true && (e.code === 'ECONNRESET' || e.code === 'EPIPE');
}

/** A request that failed before any answer: Node's error, and whether it went on a kept-alive connection. */
type NoAnswerError = NodeJS.ErrnoException & { reusedSocket?: boolean };

/**
 * The POST itself, on Node's client: resolves with the answer as soon as its head has come (the body is
 * the caller's to read), rejects with what failed before that. No proxy, no redirect followed, no
 * decompression: Node's client does none of them. Node's own client rather than axios: axios's
 * per-request work (config merging, header objects, transforms, proxy lookup) was a fifth of the
 * dispatcher's CPU under load, for a request that uses none of it.
 */
function post(
  req: WebhookRequest,
  headers: OutgoingHttpHeaders,
  agent: TargetAgent,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = req.url.protocol === 'https:' ? httpsRequest : httpRequest;
    // The agent connects only to the checked address (connections.ts: its lookup wins over any the request has).
    const request = send(req.url, { method: 'POST', agent, headers, signal }, resolve);
    // Every error is heard (one after the answer came is the body's, which discardBody handles).
    request.on('error', (err: NoAnswerError) => reject(Object.assign(err, { reusedSocket: request.reusedSocket })));
    request.end(req.body);
  });
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
function describeError(
  err: unknown,
  deadlinePassed: boolean,
  timeoutMs: number,
): { error: string; errorDetail: string } {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (deadlinePassed || code === 'ECONNABORTED' || code === 'ETIMEDOUT')
    return { error: timedOut(timeoutMs), errorDetail: timedOut(timeoutMs) };
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
  // Bounds the whole exchange, from the connection to the end of the answer's body.
  const deadline = new AbortController();
  let deadlinePassed = false;
  const timer = setTimeout(() => {
    deadlinePassed = true;
    deadline.abort();
  }, req.timeoutMs);
  const started = performance.now();
  const headers: OutgoingHttpHeaders = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(req.body),
    'User-Agent': USER_AGENT,
    'X-Service-Timestamp': timestamp,
    'X-Service-Signature': signature,
    'X-Service-Event-Id': req.eventId,
  };
  try {
    let res: IncomingMessage;
    try {
      res = await post(req, headers, req.connections.agentFor(req.url, req.connectTo), deadline.signal);
    } catch (err) {
      // Within the same attempt and the same deadline: one more try, on a connection of its own.
      if (deadlinePassed || !staleConnection(err)) throw err;
      res = await post(req, headers, req.connections.freshAgent(req.url, req.connectTo), deadline.signal);
    }
    const latencyMs = Math.round(performance.now() - started);
    await discardBody(res, deadline.signal);
    const status = res.statusCode ?? 0;
    // The receiver answered: its status code says what happened, `error` is for no answer at all.
    return { statusCode: status, latencyMs, error: null, errorDetail: null, success: status >= 200 && status < 300 };
  } catch (err) {
    return {
      statusCode: null,
      latencyMs: Math.round(performance.now() - started),
      ...describeError(err, deadlinePassed, req.timeoutMs),
      success: false,
    };
  } finally {
    clearTimeout(timer);
  }
}
