import ipaddr from 'ipaddr.js';

/**
 * The bucket a client is counted in by the per-address limits (the gateway's failed authentications,
 * the back-office's logins): `req.ip`, which honours each service's TRUST_PROXY. IPv4 as it is; IPv6 by
 * its /64, because one subscriber line usually holds a whole /64 and could otherwise take a fresh address
 * per request; an IPv4 address written as IPv6 (`::ffff:a.b.c.d`, what a dual-stack socket reports) as
 * that IPv4 address. A zone id (`fe80::1%eth0`) says nothing about who it is. No readable address at all
 * (the socket already gone) shares one bucket rather than escaping the limit.
 */
export function clientAddressBucket(ip: string | undefined): string {
  const address = ip?.replace(/%.*$/, '');
  if (!address || !ipaddr.isValid(address)) return 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
