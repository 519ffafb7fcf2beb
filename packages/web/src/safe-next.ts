/** Only a path of this site (not `//evil.example`, not back to /login): no open redirect after a sign-in. */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\/(?![/\\])[^\s\\]*$/.test(value) || value.length > 2000) return undefined;
  return /^\/(login|logout)\b/.test(value) ? undefined : value;
}
