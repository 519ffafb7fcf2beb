import { signatureMatches, timestampWithinTolerance } from '@mm/domain';

/**
 * Wave's signing-secret strategy (docs.wave.com/webhook): `Wave-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`,
 * each v1 a hex HMAC-SHA256 keyed with the webhook secret of the timestamp string then the raw body, no
 * separator (the interface's own rule, so @mm/domain's constant-time check serves). Valid when any v1
 * matches: Wave sends several while a secret is being rotated.
 */
export function parseWaveSignature(header: string): { t: string; v1: string[] } | null {
  let t: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== null) return null;
      t = value;
    } else if (key === 'v1') v1.push(value.toLowerCase());
  }
  return t !== null && v1.length > 0 ? { t, v1 } : null;
}

/** True when the header is well formed, its timestamp within the tolerance (either way) and one v1 holds. */
export function waveSignatureHolds(
  secret: string,
  header: string,
  rawBody: Buffer,
  nowMs: number,
  toleranceS: number,
): boolean {
  const parsed = parseWaveSignature(header);
  if (!parsed || !timestampWithinTolerance(parsed.t, nowMs, toleranceS)) return false;
  return parsed.v1.some((sig) => signatureMatches(secret, parsed.t, rawBody, sig));
}
