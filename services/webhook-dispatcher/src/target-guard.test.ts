import { TARGET_REFUSED } from './merchant-reasons.js';
import { resolveTarget, type Lookup, type ResolvedAddress } from './target-guard.js';

/** Resolves names from a table: no network in these tests. */
function fakeDns(table: Record<string, string[]>): Lookup {
  return async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('target guard: URLs', () => {
  const lookup = fakeDns({
    'hooks.example.com': ['93.184.216.34'],
    'rebind.example.com': ['93.184.216.34', '10.0.0.7'],
    'internal.example.com': ['169.254.169.254'],
  });

  it('resolves a public host and returns the checked address to connect to', async () => {
    const target = await resolveTarget('https://hooks.example.com/mm', { allowPrivate: false, lookup });
    expect(target).toEqual({
      ok: true,
      url: new URL('https://hooks.example.com/mm'),
      connectTo: { address: '93.184.216.34', family: 4 },
    });
  });

  it('refuses a host when any of its addresses is private', async () => {
    expect(await resolveTarget('https://rebind.example.com/', { allowPrivate: false, lookup })).toEqual({
      ok: false,
      reason: TARGET_REFUSED,
      detail: 'refused target rebind.example.com: 10.0.0.7 is a private address',
    });
    expect(await resolveTarget('http://internal.example.com/', { allowPrivate: false, lookup })).toEqual({
      ok: false,
      reason: TARGET_REFUSED,
      detail: 'refused target internal.example.com: 169.254.169.254 is the cloud metadata address',
    });
  });

  it('checks IP literals, IPv6 in brackets included', async () => {
    const system = fakeDns({ '127.0.0.1': ['127.0.0.1'], '::1': ['::1'] });
    expect(await resolveTarget('http://127.0.0.1:8080/x', { allowPrivate: false, lookup: system })).toEqual({
      ok: false,
      reason: TARGET_REFUSED,
      detail: 'refused target 127.0.0.1: 127.0.0.1 is a loopback address',
    });
    expect(await resolveTarget('http://[::1]/x', { allowPrivate: false, lookup: system })).toEqual({
      ok: false,
      reason: TARGET_REFUSED,
      detail: 'refused target ::1: ::1 is a loopback address',
    });
  });

  it('refuses URLs that are not http(s), are malformed, or do not resolve', async () => {
    expect(await resolveTarget('ftp://hooks.example.com/', { allowPrivate: true, lookup })).toEqual({
      ok: false,
      reason: TARGET_REFUSED,
      detail: 'target URL scheme ftp: is not http(s)',
    });
    expect(await resolveTarget('file:///etc/passwd', { allowPrivate: true, lookup })).toEqual({
      ok: false,
      reason: TARGET_REFUSED,
      detail: 'target URL scheme file: is not http(s)',
    });
    expect(await resolveTarget('not a url', { allowPrivate: true, lookup })).toEqual({
      ok: false,
      reason: TARGET_REFUSED,
      detail: 'target URL is not a valid URL',
    });
    expect(await resolveTarget('https://nowhere.example.com/', { allowPrivate: false, lookup })).toEqual({
      ok: false,
      reason: TARGET_REFUSED,
      detail: 'cannot resolve nowhere.example.com: ENOTFOUND',
    });
  });

  it('lets private addresses through when WEBHOOK_ALLOW_PRIVATE_NETWORKS is set, still pinned to the resolved address', async () => {
    const target = await resolveTarget('http://rebind.example.com/', { allowPrivate: true, lookup });
    expect(target).toEqual(expect.objectContaining({ ok: true, connectTo: { address: '93.184.216.34', family: 4 } }));
  });
});
