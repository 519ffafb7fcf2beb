import { AccessTokenCache, withAccessToken } from './access-token-cache.js';

function issuer(expiresInS = 3600) {
  let issued = 0;
  return {
    get count() {
      return issued;
    },
    issue: async () => ({ token: `t${++issued}`, expiresInS }),
  };
}

describe('AccessTokenCache', () => {
  it('keeps a token until shortly before its announced expiry, then fetches a new one', async () => {
    let now = 0;
    const tokens = issuer(3600);
    const cache = new AccessTokenCache({ issue: tokens.issue, refreshMarginS: 60, now: () => now });
    expect(await cache.get()).toBe('t1');
    now = (3600 - 61) * 1000;
    expect(await cache.get()).toBe('t1');
    now = (3600 - 60) * 1000;
    expect(await cache.get()).toBe('t2');
    expect(tokens.count).toBe(2);
  });

  it('keeps a short-lived token at least half its life', async () => {
    let now = 0;
    const cache = new AccessTokenCache({ issue: issuer(60).issue, refreshMarginS: 300, now: () => now });
    expect(await cache.get()).toBe('t1');
    now = 29_000;
    expect(await cache.get()).toBe('t1');
    now = 30_000;
    expect(await cache.get()).toBe('t2');
  });

  it('refreshes once for every caller waiting at the same time', async () => {
    let issued = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const cache = new AccessTokenCache({
      issue: async () => {
        issued++;
        await gate;
        return { token: 'shared', expiresInS: 3600 };
      },
    });
    const waiting = Promise.all([cache.get(), cache.get(), cache.get()]);
    release();
    expect(await waiting).toEqual(['shared', 'shared', 'shared']);
    expect(issued).toBe(1);
  });

  it('a failed refresh is not cached: the next caller asks again', async () => {
    let calls = 0;
    const cache = new AccessTokenCache({
      issue: async () => {
        if (++calls === 1) throw new Error('token endpoint down');
        return { token: 'ok', expiresInS: 3600 };
      },
    });
    await expect(cache.get()).rejects.toThrow('token endpoint down');
    expect(await cache.get()).toBe('ok');
  });
});

describe('withAccessToken', () => {
  it('on a 401 drops the token, fetches a new one and retries once', async () => {
    const tokens = issuer();
    const cache = new AccessTokenCache({ issue: tokens.issue });
    const seen: string[] = [];
    const res = await withAccessToken(cache, async (token) => {
      seen.push(token);
      return { status: seen.length === 1 ? 401 : 202 };
    });
    expect(res.status).toBe(202);
    expect(seen).toEqual(['t1', 't2']);
  });

  it('returns the second 401 instead of retrying for ever', async () => {
    const tokens = issuer();
    const cache = new AccessTokenCache({ issue: tokens.issue });
    let calls = 0;
    const res = await withAccessToken(cache, async () => {
      calls++;
      return { status: 401 };
    });
    expect(res.status).toBe(401);
    expect(calls).toBe(2);
  });

  it('a 401 for a token already replaced does not drop the newer one', async () => {
    const tokens = issuer();
    const cache = new AccessTokenCache({ issue: tokens.issue });
    const old = await cache.get();
    cache.invalidate(old);
    const fresh = await cache.get();
    cache.invalidate(old);
    expect(await cache.get()).toBe(fresh);
    expect(tokens.count).toBe(2);
  });
});
