import { refusedAddressReason } from './address-policy.js';

/**
 * Every kind of address a DNS answer or an IP literal can give, and whether a webhook may go there.
 * Those marked "hole" were let through before (ipaddr.js reads ::1.2.3.4 as ::ffff:1.2.3.4, and names
 * anything outside its special ranges "unicast", 4000::/2 and ::/96 included).
 */
describe('webhook address policy', () => {
  it.each([
    // IPv4
    ['93.184.216.34', null],
    ['8.8.8.8', null],
    ['10.0.0.1', /private/],
    ['172.16.0.1', /private/],
    ['192.168.1.1', /private/],
    ['127.0.0.1', /loopback/],
    ['169.254.169.254', /cloud metadata/],
    ['169.254.1.1', /linkLocal/],
    ['100.64.0.1', /carrierGradeNat/],
    ['0.0.0.0', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['192.0.0.170', /reserved/],
    ['192.88.99.1', /reserved/],
    ['198.18.0.1', /reserved/],
    ['240.0.0.1', /reserved/],
    // IPv6 global unicast
    ['2606:4700:4700::1111', null],
    ['2001:4860:4860::8888', null],
    ['2a00:1450:4007:80f::200e', null],
    ['3ffe::1', null],
    // IPv6 special
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fe80::1', /linkLocal/],
    ['fe80::1%eth0', /scoped/],
    ['fd00::1', /uniqueLocal/],
    ['fec0::1', /deprecatedSiteLocal/],
    ['ff02::1', /multicast/],
    ['100::1', /discard/],
    ['2001:db8::1', /reserved/],
    ['3fff::1', /reserved/],
    ['5f00::1', /segmentRouting/],
    ['2001:2::1', /benchmarking/],
    ['2001:20::1', /orchid2/],
    // Outside 2000::/3 yet "unicast" to ipaddr.js (holes)
    ['4000::1', /outside 2000::\/3/],
    ['8000::1', /outside 2000::\/3/],
    ['e000::1', /outside 2000::\/3/],
    ['1::1', /outside 2000::\/3/],
    // IPv4-mapped ::ffff:0:0/96: the IPv4 address is judged
    ['::ffff:10.0.0.1', /IPv4-mapped: 10\.0\.0\.1 is a private address/],
    ['::ffff:127.0.0.1', /IPv4-mapped: 127\.0\.0\.1 is a loopback address/],
    ['::ffff:169.254.169.254', /IPv4-mapped: 169\.254\.169\.254 is the cloud metadata address/],
    ['::ffff:a00:1', /IPv4-mapped: 10\.0\.0\.1 is a private address/],
    ['0:0:0:0:0:ffff:7f00:1', /IPv4-mapped: 127\.0\.0\.1 is a loopback address/],
    ['::ffff:8.8.8.8', null],
    // IPv4-compatible ::/96 (holes: a tunnelling host sends them to the IPv4 address)
    ['::1.2.3.4', /IPv4-compatible/],
    ['::8.8.8.8', /IPv4-compatible/],
    ['::10.0.0.1', /IPv4-compatible/],
    ['::127.0.0.1', /IPv4-compatible/],
    ['::a00:1', /IPv4-compatible/],
    ['::2', /IPv4-compatible/],
    // Other forms carrying an IPv4 address
    ['::ffff:0:a00:1', /rfc6145/],
    ['64:ff9b::a00:1', /rfc6052/],
    ['64:ff9b::8.8.8.8', /rfc6052/],
    ['64:ff9b:1::a00:1', /rfc6052/],
    ['2002:a00:1::1', /6to4/],
    ['2002:808:808::1', /6to4/],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /teredo/],
    ['2001::1', /teredo/],
    ['2001:4860:1::5efe:a00:1', /ISATAP/],
    ['2001:4860:1::200:5efe:808:808', /ISATAP/],
    // Not addresses
    ['example.com', /not an IP address/],
    ['1.2.3', /not an IP address/],
    ['', /not an IP address/],
  ])('%s -> %s', (address, expected) => {
    const reason = refusedAddressReason(address);
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toMatch(expected);
  });
});
