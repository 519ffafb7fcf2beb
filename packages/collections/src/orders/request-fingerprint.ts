import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Same parameters, same fingerprint, whatever the key order: tells a replay from a conflicting reuse. */
export function requestFingerprint(params: Record<string, unknown>): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(params)))
    .digest('hex');
}
