/**
 * The request target as the client sent it on the request line (X-Service-Request-Signature covers it):
 * Express keeps it in originalUrl, undecoded. An absolute-form target (a proxy's "GET http://host/path")
 * is reduced to its path and query.
 */
export function requestTargetOf(originalUrl: string): string {
  return originalUrl.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
}
