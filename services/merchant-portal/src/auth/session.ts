/** The portal's own session settings; the mechanics are @mm/web's (shared with the back-office). */
declare module 'express-session' {
  interface SessionData {
    /** Set once both factors are checked (after the session id is regenerated). */
    merchantUserId?: string;
  }
}

export const SESSION_COOKIE = 'mm_mp_sid';

/** Keys `<REDIS_PREFIX>:mp:sess:<session id>`, apart from the back-office's `bo`. */
export const SESSION_APP = 'mp';
