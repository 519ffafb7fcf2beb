import type { TimerSet } from '@mm/fake-operator';

/**
 * How the mock delivers callbacks (M1, M7: MTN may send none, one, or the same one twice minutes apart, and a
 * FAILED one while its status query still says PENDING). Tests change it through the control object.
 */
export interface CallbackPlan {
  /** 0 = lost, 1 = normal, 2+ = duplicated. */
  copies: number;
  /** After the decision. */
  delayMs: number;
  /** Between copies. */
  gapMs: number;
  /** > 0: the callback carries the decision this long before the status query shows it. */
  aheadOfStatusMs: number;
}

export const DEFAULT_CALLBACK_PLAN: CallbackPlan = { copies: 1, delayMs: 0, gapMs: 50, aheadOfStatusMs: 0 };

export interface SentCallback {
  url: string;
  body: string;
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null;
  at: number;
}

/** MTN waits about 2 s for an answer (operators-reference.md); unanswered, the delivery is simply over. */
const ATTEMPT_TIMEOUT_MS = 2_000;

/** Posts MTN's unsigned callbacks: POST, the status body as JSON, no signature, no retry of its own. */
export class MtnCallbacks {
  plan: CallbackPlan = { ...DEFAULT_CALLBACK_PLAN };
  readonly sent: SentCallback[] = [];
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly timers: TimerSet) {}

  /** Delivers `body` to `url` as the plan says. */
  schedule(url: string, body: unknown): void {
    const { copies, delayMs, gapMs } = this.plan;
    for (let i = 0; i < copies; i += 1) this.timers.after(delayMs + i * gapMs, () => void this.send(url, body));
  }

  /** One delivery now (also how tests send one for an unknown reference). Never rejects. */
  async send(url: string, body: unknown): Promise<SentCallback> {
    const payload = JSON.stringify(body);
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    let status: number | null = null;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: payload,
        signal: controller.signal,
        redirect: 'manual',
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch {
      status = null;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
    const sent = { url, body: payload, status, at: Date.now() };
    this.sent.push(sent);
    return sent;
  }

  stop(): void {
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }
}
