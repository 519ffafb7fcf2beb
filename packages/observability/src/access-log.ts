import type { RequestHandler, Response } from 'express';
import type { Logger } from './logger.js';

/** What one access line is made of, kept on the response between the request and its end. */
interface AccessEntry {
  started: number;
  req: { id: string | undefined; method: string; url: string };
}

const ENTRY = Symbol('accessLogEntry');
type Logged = Response & { [ENTRY]?: AccessEntry; err?: unknown };

/**
 * One line per request: id (the X-Request-Id, also as request_id), method, url, status, duration, and
 * the transaction_id a route set on res.locals.transactionId, so that a request can be followed into
 * the workers' lines, which carry the same transaction_id. Never the headers: they carry signatures,
 * API keys and session cookies.
 *
 * The line is pino-http's (`req`, `request_id`, `transaction_id`, `res`, `responseTime`, message
 * `request completed`, `request aborted` or `request errored` with `err` for a 5xx), written without
 * pino-http: it made two child loggers per request and ran the logger's redaction over every line, a
 * quarter of the gateway's CPU per status read (docs/performance-log.md). Here nothing is made per request
 * but the line's own object, through one child logger made once without redaction: an access line holds
 * ids, the method, the path, a status and a duration, none of which a redaction path names.
 */
export function accessLog(logger: Logger): RequestHandler {
  const log = logger.child({}, { redact: [] });
  return (req, res, next) => {
    if (!log.isLevelEnabled('info')) return next();
    // The url as received (routers rewrite req.url while they run), read now as pino-http read it.
    (res as Logged)[ENTRY] = {
      started: Date.now(),
      req: { id: (res.locals as { requestId?: string }).requestId, method: req.method, url: req.originalUrl },
    };
    // 'close' comes after 'finish' for every answer, and alone for an aborted one: one listener for both.
    res.on('close', onEnd);
    res.on('error', onEnd);
    next();
  };

  // One function for every request: `this` is the response whose end it is.
  function onEnd(this: Logged, err?: unknown): void {
    this.removeListener('close', onEnd);
    this.removeListener('error', onEnd);
    const entry = this[ENTRY];
    if (!entry) return;
    const responseTime = Date.now() - entry.started;
    const { requestId, transactionId } = this.locals as { requestId?: string; transactionId?: string };
    const res = { statusCode: this.statusCode };
    if (err || this.err || this.statusCode >= 500) {
      const error = err ?? this.err ?? new Error(`failed with status code ${this.statusCode}`);
      log.info(
        transactionId
          ? { req: entry.req, request_id: requestId, transaction_id: transactionId, res, err: error, responseTime }
          : { req: entry.req, request_id: requestId, res, err: error, responseTime },
        'request errored',
      );
      return;
    }
    const msg = !this.req.readableAborted && this.writableEnded ? 'request completed' : 'request aborted';
    log.info(
      transactionId
        ? { req: entry.req, request_id: requestId, transaction_id: transactionId, res, responseTime }
        : { req: entry.req, request_id: requestId, res, responseTime },
      msg,
    );
  }
}
