import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Decisions 9: which resolved addresses a webhook may be sent to. IPv4: globally routable unicast
 * only, as ipaddr.js names it (no loopback, private, link-local and the cloud metadata address,
 * carrier-grade NAT, reserved, multicast...). IPv6: global unicast 2000::/3 only, without the special
 * ranges inside it, and without any form that carries an IPv4 address, since the network may deliver
 * it to that IPv4 address (IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16,
 * Teredo 2001::/32, ISATAP interface ids, IPv4-translated ::ffff:0:0:0/96). An IPv4-mapped address
 * (::ffff:a.b.c.d) is a dual-stack socket's spelling of the IPv4 address itself: that address is judged.
 */
export function refusedAddressReason(address: string): string | null {
  if (isIPv4(address)) return refusedIPv4(address, address);
  if (isIPv6(address)) return refusedIPv6(address);
  return `not an IP address: ${address}`;
}

const METADATA_ADDRESS = '169.254.169.254';

function refusedIPv4(v4: string, shown: string): string | null {
  const ip = ipaddr.IPv4.parse(v4);
  if (ip.toString() === METADATA_ADDRESS) return `${shown} is the cloud metadata address`;
  const range = ip.range();
  return range === 'unicast' ? null : `${shown} is a ${range} address`;
}

/**
 * The eight 16-bit groups as the network stack reads them. Not ipaddr.parse on the text: it reads
 * the IPv4-compatible ::1.2.3.4 as the mapped ::ffff:1.2.3.4 (and would let it through as 1.2.3.4);
 * the WHATWG URL parser spells every address in hex first.
 */
function groups(address: string): number[] {
  const hex = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  return ipaddr.IPv6.parse(hex).parts;
}

function refusedIPv6(address: string): string | null {
  // A zone (fe80::1%eth0) only goes with link-local addresses, never a public one.
  if (address.includes('%')) return `${address} is a scoped (link-local) address`;
  const g = groups(address);
  const ip = new ipaddr.IPv6(g);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    const v4 = ip.toIPv4Address().toString();
    const reason = refusedIPv4(v4, v4);
    return reason && `${address} is IPv4-mapped: ${reason}`;
  }
  const range = ip.range();
  if (g.slice(0, 6).every((x) => x === 0) && range === 'unicast')
    return `${address} is an IPv4-compatible address (::/96)`;
  if ((g[0]! & 0xe000) !== 0x2000) {
    return range === 'unicast'
      ? `${address} is not global unicast (outside 2000::/3)`
      : `${address} is a ${range} address`;
  }
  if (range !== 'unicast') return `${address} is a ${range} address`;
  // ISATAP (RFC 5214): an interface id of 0000:5efe or 0200:5efe followed by an IPv4 address, in any prefix.
  if ((g[4]! & 0xfcff) === 0 && g[5] === 0x5efe) return `${address} carries an IPv4 address (ISATAP interface id)`;
  return null;
}
