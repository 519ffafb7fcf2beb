import { isIPv4, isIPv6 } from 'node:net';

/**
 * The bucket a login attempt is counted in for its client address (`req.ip`, which honours
 * TRUST_PROXY). IPv4 as it is; IPv6 by its /64, because one host or customer line usually holds a whole
 * /64 and could otherwise take a fresh address per guess; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`,
 * what a dual-stack socket reports) as the IPv4 address it is. No address at all (the socket already
 * gone) shares one bucket rather than escaping the limit.
 */
export function addressBucket(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const address = ip.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) says nothing about who it is
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return 'unknown';
  const groups = ipv6Groups(address);
  const isMappedV4 = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (isMappedV4) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((g) => {
      if (!g.includes('.')) return [parseInt(g, 16)];
      const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head = '', tail] = address.split('::');
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
