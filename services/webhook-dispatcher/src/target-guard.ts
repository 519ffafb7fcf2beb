import { lookup as dnsLookup } from 'node:dns/promises';
import { refusedAddressReason } from './address-policy.js';
import { TARGET_REFUSED } from './merchant-reasons.js';

export { refusedAddressReason };

/**
 * Decisions 9: the dispatcher must not become a way into our own network. A merchant chooses the
 * URL, so its host is resolved at send time and every address it resolves to is checked; the
 * request then goes to the address that was checked (see `ResolvedTarget`), so a DNS answer that
 * changes between the check and the connection (DNS rebinding) cannot redirect it.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type ResolvedTarget =
  | { ok: true; url: URL; connectTo: ResolvedAddress }
  /** `reason` is the merchant's (always TARGET_REFUSED), `detail` staff's: the address or resolver error. */
  | { ok: false; reason: string; detail: string };

export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface TargetGuardOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: local development and tests deliver to 127.0.0.1. */
  allowPrivate: boolean;
  /** Injected in tests to resolve names without a network. */
  lookup?: Lookup;
}

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

const refused = (detail: string): ResolvedTarget => ({ ok: false, reason: TARGET_REFUSED, detail });

/** Checks a webhook URL just before sending; refusal reasons are recorded on the attempt. */
export async function resolveTarget(rawUrl: string, options: TargetGuardOptions): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refused('target URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return refused(`target URL scheme ${url.protocol} is not http(s)`);
  }
  // URL keeps IPv6 literals in brackets; the resolver wants the bare address.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.lookup ?? systemLookup)(host);
  } catch (err) {
    return refused(`cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const [first] = addresses;
  if (!first) return refused(`cannot resolve ${host}: no address`);
  if (!options.allowPrivate) {
    // Every address is checked, not only the first: the connection could otherwise fall back to
    // another one of the answer.
    for (const a of addresses) {
      const reason = refusedAddressReason(a.address);
      if (reason) return refused(`refused target ${host}: ${reason}`);
    }
  }
  return { ok: true, url, connectTo: first };
}
