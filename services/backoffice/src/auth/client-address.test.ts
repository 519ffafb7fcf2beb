import { addressBucket } from './client-address.js';

describe('addressBucket: what one client address is, for counting login attempts', () => {
  it('keeps an IPv4 address as it is, and unwraps an IPv4-mapped IPv6 address (a dual-stack socket) to it', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts IPv6 by its /64: every address of one line is the same client', () => {
    const bucket = addressBucket('2001:db8:1:2::1');
    expect(bucket).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe(bucket);
    expect(addressBucket('2001:db8:1:2:a::')).toBe(bucket);
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(bucket);
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('puts a missing or unreadable address in one shared bucket rather than letting it escape the limit', () => {
    expect(addressBucket(undefined)).toBe('unknown');
    expect(addressBucket('')).toBe('unknown');
    expect(addressBucket('not an address')).toBe('unknown');
  });
});
