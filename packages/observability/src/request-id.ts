import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

/** Every response carries X-Request-Id (also in logs and audit rows); a caller's own id is kept when it is sane. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && /^[A-Za-z0-9._-]{1,100}$/.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};
