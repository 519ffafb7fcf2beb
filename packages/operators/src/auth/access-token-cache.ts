export interface IssuedToken {
  token: string;
  /** Lifetime the operator announced, in seconds (MTN 3600, Orange mp 300, Orange WebPay 90 days). */
  expiresInS: number;
}

export interface AccessTokenCacheOptions {
  /** Asks the operator for a new token (its token endpoint, with our client credentials). */
  issue(): Promise<IssuedToken>;
  /** Refresh this long before the announced expiry, so a call never leaves with a token about to lapse. */
  refreshMarginS?: number;
  now?: () => number;
}

/**
 * An operator's OAuth-style access token, shared by every call of one account: fetched once, kept
 * until shortly before it expires, refreshed by one caller at a time (concurrent callers wait for the
 * same refresh instead of each asking the token endpoint), and dropped when the operator says it no
 * longer accepts it (a 401), whatever its announced lifetime.
 */
export class AccessTokenCache {
  private current: { token: string; refreshAt: number } | null = null;
  private inFlight: Promise<string> | null = null;
  private readonly now: () => number;

  constructor(private readonly o: AccessTokenCacheOptions) {
    this.now = o.now ?? Date.now;
  }

  async get(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAt) return this.current.token;
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The operator refused `token` (401): forget it, unless a newer one already replaced it. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = null;
  }

  private async refresh(): Promise<string> {
    const issued = await this.o.issue();
    const lifetimeMs = Math.max(0, issued.expiresInS) * 1000;
    // Short-lived tokens (Orange mp's 300 s) keep at least half their life; long ones refresh a margin early.
    const marginMs = Math.min((this.o.refreshMarginS ?? 60) * 1000, lifetimeMs / 2);
    this.current = { token: issued.token, refreshAt: this.now() + lifetimeMs - marginMs };
    return issued.token;
  }
}

/**
 * Runs a call with the cached token, and once more with a fresh one if the operator answers 401 (a
 * token revoked or expired early, mid-flight). A second 401 is returned to the caller: our credentials
 * are wrong, and asking again will not fix them.
 */
export async function withAccessToken<R extends { status: number }>(
  cache: AccessTokenCache,
  call: (token: string) => Promise<R>,
): Promise<R> {
  const token = await cache.get();
  const first = await call(token);
  if (first.status !== 401) return first;
  cache.invalidate(token);
  return call(await cache.get());
}
