/** The back-office's own session settings; the mechanics are @mm/web's (shared with the merchant portal). */
declare module 'express-session' {
  interface SessionData {
    /** Set at login only (after the session id is regenerated). */
    staffId?: string;
  }
}

export const SESSION_COOKIE = 'mm_bo_sid';

/** Keys `<REDIS_PREFIX>:bo:sess:<session id>` (see sessionKeyPrefix). */
export const SESSION_APP = 'bo';

/** The multipart POST forms, whose route checks the CSRF token once its parser has read it. */
export const MULTIPART_POSTS: ReadonlySet<string> = new Set(['/reconciliation/import']);
