import type { RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger.js';

/**
 * One line per request: id (the X-Request-Id, also as request_id), method, url, status, duration, and
 * the transaction_id a route set on res.locals.transactionId, so that a request can be followed into
 * the workers' lines, which carry the same transaction_id. Never the headers:
 * they carry signatures, API keys and session cookies, and serialising and redacting them was an
 * eighth of the gateway's CPU per status read (docs/performance.md).
 */
export function accessLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => (res as Response).locals.requestId as string,
    // Read when the line is written, after the route ran: the transaction is known by then.
    customProps: (_req, res) => {
      const { requestId, transactionId } = (res as Response).locals as { requestId?: string; transactionId?: string };
      return { request_id: requestId, ...(transactionId ? { transaction_id: transactionId } : {}) };
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
