import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './target-guard.js';

/**
 * Kept-alive connections to merchants, one pool per checked target: scheme, host, port and the address
 * the target guard checked for this attempt. A connection therefore only ever carries deliveries whose
 * host resolved, when they were checked, to the address it is connected to: a DNS answer that changes
 * (to another public address, or to a private one the guard refuses) never rides an existing connection,
 * it is checked first and then gets a pool of its own. TLS is unchanged: the certificate is checked
 * against the host name, which is also the SNI server name; only the address lookup is pinned.
 */

/** Below the keep-alive timeout of common servers (Node 5 s; nginx, Apache and load balancers longer): we close first. */
export const IDLE_TIMEOUT_MS = 4_000;
/** Targets whose pools are kept; the least recently used beyond it are closed. */
export const MAX_TARGETS = 256;

export type TargetAgent = HttpAgent | HttpsAgent;

export interface WebhookConnectionsOptions {
  /** Connections open at once to one target. The dispatcher passes WEBHOOK_CONCURRENCY: a delivery never waits for one. */
  maxSocketsPerTarget: number;
  idleTimeoutMs?: number;
  maxTargets?: number;
}

/** A lookup that always answers the checked address, in either of the forms Node asks for. */
export function pinnedLookup(to: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: to.address, family: to.family }]);
    else callback(null, to.address, to.family);
  };
}

function newAgent(
  protocol: string,
  to: ResolvedAddress,
  options: { keepAlive: boolean; maxSockets?: number; timeout?: number },
): TargetAgent {
  // Options given to the agent win over the request's (Node's Agent.addRequest): every connection it opens goes to `to`.
  const o = { ...options, lookup: pinnedLookup(to), scheduling: 'lifo' as const };
  return protocol === 'https:' ? new HttpsAgent(o) : new HttpAgent(o);
}

/** Closes the pool's idle connections now, and the busy ones when their request ends. */
function retire(agent: TargetAgent): void {
  agent.maxFreeSockets = 0;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

export class WebhookConnections {
  /** Insertion order is recency: a pool used is moved to the end, the first one is the least recently used. */
  private readonly agents = new Map<string, TargetAgent>();
  private readonly idleTimeoutMs: number;
  private readonly maxTargets: number;

  constructor(private readonly options: WebhookConnectionsOptions) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    this.maxTargets = options.maxTargets ?? MAX_TARGETS;
  }

  /** The keep-alive pool of this URL's scheme, host and port at the address the guard checked. */
  agentFor(url: URL, to: ResolvedAddress): TargetAgent {
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    // None of the parts can contain a space.
    const key = `${url.protocol} ${url.hostname} ${port} ${to.address}`;
    const known = this.agents.get(key);
    if (known) {
      this.agents.delete(key);
      this.agents.set(key, known);
      return known;
    }
    const agent = newAgent(url.protocol, to, {
      keepAlive: true,
      maxSockets: this.options.maxSocketsPerTarget,
      timeout: this.idleTimeoutMs,
    });
    this.agents.set(key, agent);
    if (this.agents.size > this.maxTargets) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, TargetAgent];
      this.agents.delete(oldestKey);
      retire(oldest);
    }
    return agent;
  }

  /** One new connection outside the pools, closed after its request (the retry after a stale kept-alive one). */
  freshAgent(url: URL, to: ResolvedAddress): TargetAgent {
    return newAgent(url.protocol, to, { keepAlive: false });
  }

  /** Pools kept (tests). */
  get size(): number {
    return this.agents.size;
  }

  /** At shutdown: every connection closed. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
