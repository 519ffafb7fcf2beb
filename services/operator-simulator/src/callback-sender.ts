import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { signPayload } from '@mm/domain';
import type { Log, TimerSet } from '@mm/fake-operator';
import { postBody } from './post-body.js';
import type { CallbackBody } from './wire.js';

const ATTEMPT_TIMEOUT_MS = 5_000;
/** Connections open at once to one callback host (the bridge); callbacks beyond wait for one. */
export const CALLBACK_MAX_SOCKETS = 50;
/** Idle connections are closed after this: below the bridge's keep-alive timeout (Node's 5 s), so the simulator closes first. */
export const CALLBACK_IDLE_TIMEOUT_MS = 4_000;

export interface CallbackSenderOptions {
  secret: string;
  /** Delay before each retry; the number of entries is the number of retries. */
  retryDelaysMs: readonly number[];
  timers: TimerSet;
  log: Log;
}

/** Posts signed callbacks like a real operator: fire and forget, a few retries on failure, then give up. */
export class CallbackSender {
  private readonly inFlight = new Set<AbortController>();
  private stopped = false;
  /** Kept-alive connections to the callback hosts, like a real operator's client: not a handshake per callback. */
  private readonly agents = (() => {
    const o = {
      keepAlive: true,
      maxSockets: CALLBACK_MAX_SOCKETS,
      timeout: CALLBACK_IDLE_TIMEOUT_MS,
      scheduling: 'lifo' as const,
    };
    return { http: new HttpAgent(o), https: new HttpsAgent(o) };
  })();

  constructor(private readonly options: CallbackSenderOptions) {}

  /**
   * Resolves (never rejects) once the first attempt has settled, so a caller can send something strictly after
   * it (the stale callback of the out-of-order fault); retries go on without it.
   */
  send(url: string, body: CallbackBody): Promise<void> {
    // One body string for every attempt: the signature covers these exact bytes.
    return this.attempt(url, JSON.stringify(body), body.partner_reference, 0);
  }

  /** Aborts requests in flight and closes the kept-alive connections; pending retries are the TimerSet's to clear. */
  stop(): void {
    this.stopped = true;
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async attempt(url: string, payload: string, reference: string, attempt: number): Promise<void> {
    if (this.stopped) return;
    const { secret, retryDelaysMs, timers, log } = this.options;
    // A fresh timestamp per attempt, so a retry many seconds later is still within the receiver's tolerance.
    const timestamp = String(Math.floor(Date.now() / 1000));
    const controller = new AbortController();
    this.inFlight.add(controller);
    let outcome: string;
    try {
      const status = await postBody(url, payload, {
        headers: {
          'Content-Type': 'application/json',
          'X-Operator-Timestamp': timestamp,
          'X-Operator-Signature': signPayload(secret, timestamp, payload),
        },
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        signal: controller.signal,
        agents: this.agents,
      });
      if (status >= 200 && status < 300) {
        log('callback.delivered', { partner_reference: reference, attempt, status });
        return;
      }
      outcome = `HTTP ${status}`;
    } catch (err) {
      if (this.stopped) return;
      outcome = err instanceof Error ? err.message : String(err);
    } finally {
      this.inFlight.delete(controller);
    }
    const delay = retryDelaysMs[attempt];
    if (delay === undefined) {
      log('callback.gave_up', { partner_reference: reference, attempts: attempt + 1, last_error: outcome }, 'warn');
      return;
    }
    log('callback.retry_scheduled', { partner_reference: reference, attempt, delay_ms: delay, error: outcome });
    timers.after(delay, () => void this.attempt(url, payload, reference, attempt + 1));
  }
}
