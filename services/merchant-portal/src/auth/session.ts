/** The portal's own session settings; the mechanics are @mm/web's (shared with the back-office). */
declare module 'express-session' {
  interface SessionData {
    /** Set once both factors are checked (after the session id is regenerated). */
    merchantUserId?: string;
    /** Between the two steps of a sign-in: whose password was right, when, where to go after, wrong codes so far. */
    pendingUserId?: string;
    pendingAt?: number;
    pendingNext?: string;
    pendingFailures?: number;
  }
}

export const SESSION_COOKIE = 'mm_mp_sid';

/** Keys `<REDIS_PREFIX>:mp:sess:<session id>`, apart from the back-office's `bo`. */
export const SESSION_APP = 'mp';

/** The second step must follow the first within this, or the password is asked for again. */
export const SECOND_FACTOR_WINDOW_MS = 5 * 60_000;

/** Wrong codes one password step allows before the password is asked for again (which is throttled). */
export const SECOND_FACTOR_MAX_FAILURES = 5;
