import ipaddr from 'ipaddr.js';

/**
 * The bucket a client's failed authentications are counted in: its IPv4 address, or the /64 of its
 * IPv6 address, since one IPv6 subscriber is usually given a whole /64 and could otherwise change
 * address on every request. An IPv4 address written as IPv6 (::ffff:a.b.c.d, what a dual-stack socket
 * reports) is counted as that IPv4 address.
 */
export function clientBucket(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
