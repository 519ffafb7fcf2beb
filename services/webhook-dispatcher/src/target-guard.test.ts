import { refusedAddressReason, resolveTarget, type Lookup, type ResolvedAddress } from './target-guard.js';

/** Resolves names from a table: no network in these tests. */
function fakeDns(table: Record<string, string[]>): Lookup {
  return async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('target guard: addresses', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddressReason(address)).toBe(`${address} is a ${range} address`);
  });

  it('refuses the cloud metadata address 169.254.169.254 by name', () => {
    expect(refusedAddressReason('169.254.169.254')).toBe('169.254.169.254 is the cloud metadata address');
    expect(refusedAddressReason('169.254.1.1')).toBe('169.254.1.1 is a linkLocal address');
  });

  it('refuses IPv6 forms that embed an IPv4 address (NAT64, 6to4)', () => {
    expect(refusedAddressReason('64:ff9b::a00:1')).toMatch(/rfc6052/);
    expect(refusedAddressReason('2002:a00:1::1')).toMatch(/6to4/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });
});

describe('target guard: URLs', () => {
  const lookup = fakeDns({
    'hooks.example.com': ['93.184.216.34'],
    'rebind.example.com': ['93.184.216.34', '10.0.0.7'],
    'internal.example.com': ['169.254.169.254'],
  });

  it('resolves a public host and returns the checked address to connect to', async () => {
    const target = await resolveTarget('https://hooks.example.com/mm', { allowPrivate: false, lookup });
    expect(target).toEqual({ ok: true, url: new URL('https://hooks.example.com/mm'), connectTo: { address: '93.184.216.34', family: 4 } });
  });

  it('refuses a host when any of its addresses is private', async () => {
    expect(await resolveTarget('https://rebind.example.com/', { allowPrivate: false, lookup })).toEqual({
      ok: false, reason: 'refused target rebind.example.com: 10.0.0.7 is a private address',
    });
    expect(await resolveTarget('http://internal.example.com/', { allowPrivate: false, lookup })).toEqual({
      ok: false, reason: 'refused target internal.example.com: 169.254.169.254 is the cloud metadata address',
    });
  });

  it('checks IP literals, IPv6 in brackets included', async () => {
    const system = fakeDns({ '127.0.0.1': ['127.0.0.1'], '::1': ['::1'] });
    expect(await resolveTarget('http://127.0.0.1:8080/x', { allowPrivate: false, lookup: system })).toEqual({ ok: false, reason: 'refused target 127.0.0.1: 127.0.0.1 is a loopback address' });
    expect(await resolveTarget('http://[::1]/x', { allowPrivate: false, lookup: system })).toEqual({ ok: false, reason: 'refused target ::1: ::1 is a loopback address' });
  });

  it('refuses URLs that are not http(s), are malformed, or do not resolve', async () => {
    expect(await resolveTarget('ftp://hooks.example.com/', { allowPrivate: true, lookup })).toEqual({ ok: false, reason: 'target URL scheme ftp: is not http(s)' });
    expect(await resolveTarget('file:///etc/passwd', { allowPrivate: true, lookup })).toEqual({ ok: false, reason: 'target URL scheme file: is not http(s)' });
    expect(await resolveTarget('not a url', { allowPrivate: true, lookup })).toEqual({ ok: false, reason: 'target URL is not a valid URL' });
    expect(await resolveTarget('https://nowhere.example.com/', { allowPrivate: false, lookup })).toEqual({ ok: false, reason: 'cannot resolve nowhere.example.com: ENOTFOUND' });
  });

  it('lets private addresses through when WEBHOOK_ALLOW_PRIVATE_NETWORKS is set, still pinned to the resolved address', async () => {
    const target = await resolveTarget('http://rebind.example.com/', { allowPrivate: true, lookup });
    expect(target).toEqual(expect.objectContaining({ ok: true, connectTo: { address: '93.184.216.34', family: 4 } }));
  });
});
