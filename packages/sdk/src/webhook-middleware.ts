import type { IncomingMessage, ServerResponse } from 'node:http';
import { MobileMoneyError, WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';
import { verifyWebhook, type VerifyOptions } from './webhooks.js';

export interface WebhookMiddlewareOptions extends VerifyOptions {
  /** Your API secret, or several while you rotate keys. */
  secret: string | readonly string[];
  /** Bodies larger than this are refused with 413. Default 1 MiB (events are well under 2 KiB). */
  limitBytes?: number;
}

/** The request after the middleware: the verified event is on `webhookEvent`. */
export type WebhookRequest = IncomingMessage & { body?: unknown; webhookEvent?: WebhookEvent };

/**
 * Express (or any connect-style) middleware for your webhook route: reads the raw body (or takes the Buffer
 * that `express.raw()` left in `req.body`), verifies it, sets `req.webhookEvent` and calls `next()`; a
 * webhook that fails verification is answered 401 and never reaches your handler, and a genuine event of
 * a type this SDK does not know is answered 204 without reaching it. Mount it before any JSON body
 * parser on that route: a signature can only be checked on the bytes received.
 */
export function webhookMiddleware(options: WebhookMiddlewareOptions) {
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length === 0))
    throw new TypeError('webhookMiddleware: secret is required');
  const limit = options.limitBytes ?? 1024 * 1024;
  return (req: WebhookRequest, res: ServerResponse, next: (err?: unknown) => void): void => {
    rawBodyOf(req, limit)
      .then((raw) => {
        if (raw === 'too large') return answer(res, 413, 'PAYLOAD_TOO_LARGE');
        try {
          req.webhookEvent = verifyWebhook(raw, req.headers, options.secret, options);
        } catch (err) {
          // A genuine event of a newer API version: acknowledged (so it is not retried), not handled.
          if (err instanceof WebhookVerificationError && err.reason === 'UNKNOWN_EVENT')
            return answer(res, 204, err.reason);
          if (err instanceof WebhookVerificationError) return answer(res, 401, err.reason);
          throw err;
        }
        next();
      })
      .catch(next);
  };
}

async function rawBodyOf(req: WebhookRequest, limit: number): Promise<Buffer | 'too large'> {
  if (Buffer.isBuffer(req.body)) return req.body;
  if (typeof req.body === 'string') return Buffer.from(req.body, 'utf8');
  // express.json() leaves {} on a request it did not parse (another Content-Type): its stream is still unread.
  const untouched = req.body === undefined || req.body === null || (isEmptyObject(req.body) && !req.readableEnded);
  if (!untouched) {
    throw new MobileMoneyError(
      'webhookMiddleware needs the raw body: mount it before express.json() on this route, or behind express.raw({ type: "application/json" })',
    );
  }
  if (req.readableEnded)
    throw new MobileMoneyError('webhookMiddleware needs the raw body, but the request body was already read');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const isEmptyObject = (v: unknown) => typeof v === 'object' && v !== null && Object.keys(v).length === 0;

function answer(res: ServerResponse, status: number, reason: string): void {
  res.statusCode = status;
  if (status === 204) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ error: reason }));
}
