import type { Readable } from 'node:stream';
import axios, { isAxiosError, type AddressFamily, type LookupAddress } from 'axios';
import { signPayload } from '@mm/domain';
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
}

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
  try {
    const res = await axios.post<Readable>(req.url.toString(), req.body, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        'X-Service-Timestamp': timestamp,
        'X-Service-Signature': signature,
        'X-Service-Event-Id': req.eventId,
      },
      // The body is already a string: no re-serialisation, the signed bytes are the sent bytes.
      transformRequest: [(data: unknown) => data],
      lookup: pinnedLookup(req.connectTo),
      // A proxy from the environment would make the connection somewhere other than the checked address.
      proxy: false,
      maxRedirects: 0,
      timeout: req.timeoutMs,
      signal: deadline.signal,
      validateStatus: () => true,
      // The receiver's body is not used: it is not read into memory, whatever its size.
      responseType: 'stream',
      decompress: false,
    });
    const latencyMs = Math.round(performance.now() - started);
    res.data.on('error', () => undefined);
    res.data.destroy();
    // The receiver answered: its status code says what happened, `error` is for no answer at all.
    return { statusCode: res.status, latencyMs, error: null, errorDetail: null, success: res.status >= 200 && res.status < 300 };
  } catch (err) {
    return { statusCode: null, latencyMs: Math.round(performance.now() - started), ...describeError(err, deadlinePassed, req.timeoutMs), success: false };
  } finally {
    clearTimeout(timer);
  }
}
