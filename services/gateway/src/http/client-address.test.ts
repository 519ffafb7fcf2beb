import { clientBucket } from './client-address.js';

describe('client address bucket (failed authentications are counted per bucket)', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
    ['not an address', 'unknown'],
  ])('%s counts as %s', (ip, bucket) => {
    expect(clientBucket(ip)).toBe(bucket);
  });
});
