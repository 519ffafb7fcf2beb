import type { Request, RequestHandler } from 'express';
import session, { type Store } from 'express-session';

declare module 'express-session' {
  interface SessionData {
    /** Set at login only (after the session id is regenerated). */
    staffId?: string;
    /** Epoch ms of the login: the session's absolute lifetime counts from it. */
    loginAt?: number;
  }
}

export const SESSION_COOKIE = 'mm_bo_sid';

/** Where the sessions live in Redis: `<REDIS_PREFIX>:bo:sess:<session id>`. */
export function sessionKeyPrefix(redisPrefix: string): string {
  return `${redisPrefix}:bo:sess:`;
}

/**
 * An anonymous session exists only to hold the login form's CSRF token: it expires soon, so anonymous
 * visits cannot pile up keys in a Redis that must never evict.
 */
export const ANONYMOUS_SESSION_MS = 30 * 60 * 1000;

export interface SessionOptions {
  store: Store;
  secret: string;
  ttlS: number;
  secureCookies: boolean;
}

export function sessionMiddleware(o: SessionOptions): RequestHandler {
  return session({
    name: SESSION_COOKIE,
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
