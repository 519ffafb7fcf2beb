import type { Request, RequestHandler } from 'express';
import session, { type Store } from 'express-session';

declare module 'express-session' {
  interface SessionData {
    /** Epoch ms of the login: the session's absolute lifetime counts from it. */
    loginAt?: number;
  }
}

/**
 * Where one web app's sessions live in Redis: `<REDIS_PREFIX>:<app>:sess:<session id>` (`bo` for the
 * back-office, `mp` for the merchant portal), so the two apps never read each other's sessions.
 */
export function sessionKeyPrefix(redisPrefix: string, app: string): string {
  return `${redisPrefix}:${app}:sess:`;
}

/**
 * An anonymous session exists only to hold the login form's CSRF token: it expires soon, so anonymous
 * visits cannot pile up keys in a Redis that must never evict.
 */
export const ANONYMOUS_SESSION_MS = 30 * 60 * 1000;

export interface SessionOptions {
  /** The cookie's name, one per app (`mm_bo_sid`, `mm_mp_sid`). */
  cookieName: string;
  store: Store;
  secret: string;
  ttlS: number;
  secureCookies: boolean;
}

export function sessionMiddleware(o: SessionOptions): RequestHandler {
  return session({
    name: o.cookieName,
    secret: o.secret,
    store: o.store,
    resave: false,
    // No session (no Redis key, no cookie) until something is stored in it: health checks and bots cost nothing.
    saveUninitialized: false,
    unset: 'destroy',
    cookie: { httpOnly: true, sameSite: 'lax', secure: o.secureCookies, path: '/', maxAge: o.ttlS * 1000 },
  });
}

/** A new session id with empty data (the old one is deleted from the store): login, fixation defence. */
export function regenerateSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err: unknown) => (err ? reject(err) : resolve())));
}

export function saveSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err: unknown) => (err ? reject(err) : resolve())));
}

export function destroySession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err: unknown) => (err ? reject(err) : resolve())));
}
