import type { RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger.js';

/**
 * One line per request: id (the X-Request-Id), method, url, status and duration. Never the headers:
 * they carry signatures, API keys and session cookies, and serialising and redacting them was an
 * eighth of the gateway's CPU per status read (docs/performance.md).
 */
export function accessLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => (res as Response).locals.requestId as string,
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
