/**
 * The customer action stored on the transaction, as the page may show it: a REDIRECT to an http(s) URL
 * (the one the operator gave: the page never takes a URL from the request), or an OTP with its USSD code.
 * Anything else (NONE, null, a malformed value) shows the USSD-push instruction.
 */
export function storedAction(
  stored: unknown,
): { type: 'REDIRECT'; url: string } | { type: 'OTP'; ussd: string } | null {
  if (!stored || typeof stored !== 'object') return null;
  const a = stored as Record<string, unknown>;
  if (a.type === 'REDIRECT' && typeof a.url === 'string') {
    try {
      const u = new URL(a.url);
      return u.protocol === 'https:' || u.protocol === 'http:' ? { type: 'REDIRECT', url: u.toString() } : null;
    } catch {
      return null;
    }
  }
  if (a.type === 'OTP' && typeof a.ussd === 'string' && a.ussd.length > 0 && a.ussd.length <= 64)
    return { type: 'OTP', ussd: a.ussd };
  return null;
}
