import { isConnectionLost } from '@mm/db';

/**
 * What this gateway has seen of PostgreSQL going away: a request's query failing as unavailable, an idle
 * pooled connection ended by the server, the LISTEN connection lost. A cash-in committed just before
 * PostgreSQL stopped waits for an acknowledgement the bridge cannot write: its wait ends when an outage is
 * seen instead of running out its whole CASHIN_ACK_WAIT_MS, so the answer comes within the request's
 * database budget like every other request's (docs/reliability.md, "Bounded answers").
 */
export class DatabaseOutage {
  private controller = new AbortController();
  private lastSeenAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Takes note of `err` when it says the connection to PostgreSQL is lost or refused (not a lock or a
   * statement out of time: those are one request's, and the bridge may well be writing meanwhile).
   */
  seen(err: unknown): void {
    if (!isConnectionLost(err)) return;
    this.lastSeenAt = this.now();
    this.controller.abort(err);
    this.controller = new AbortController();
  }

  /** When this was taken (now()): the work that began then. */
  mark(): number {
    return this.now();
  }

  /** Aborted when an outage is seen after `since` (already, if one was seen since then). */
  signalSince(since: number): AbortSignal {
    return this.lastSeenAt >= since ? AbortSignal.abort() : this.controller.signal;
  }
}
