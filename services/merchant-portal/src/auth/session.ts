/** The portal's own session settings; the mechanics are @mm/web's (shared with the back-office). */
declare module 'express-session' {
  interface SessionData {
    /** Set once both factors are checked (after the session id is regenerated). */
    merchantUserId?: string;
    /** Between the password and the second factor: whose password was right, and when. */
    pendingUserId?: string;
    pendingAt?: number;
  }
}

export const SESSION_COOKIE = 'mm_mp_sid';

/** Keys `<REDIS_PREFIX>:mp:sess:<session id>`, apart from the back-office's `bo`. */
export const SESSION_APP = 'mp';

/** How long the second step may wait after a right password: an abandoned half sign-in goes stale. */
export const PENDING_SIGN_IN_MS = 5 * 60 * 1000;
