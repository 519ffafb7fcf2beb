import type { TimerSet } from '@mm/fake-operator';

/** How the next notifications go wrong (Orange's are unsigned and best effort; operators-reference.md section 3). */
export type NotificationFault = 'lose' | 'duplicate';

export interface SentNotification {
  url: string;
  body: Record<string, unknown>;
  /** The receiver's status, or 0 when it could not be reached. */
  answered: number;
}

/** Posts Orange's unsigned notifications (JSON) to the URL the payment named, once, after a delay. */
export class Notifier {
  readonly sent: SentNotification[] = [];
  private readonly faults: NotificationFault[] = [];

  constructor(private readonly o: { timers: TimerSet; delayMs: number }) {}

  /** The next `times` notifications are lost / sent twice. */
  fault(fault: NotificationFault, times = 1): void {
    for (let i = 0; i < times; i += 1) this.faults.push(fault);
  }

  notify(url: string, body: Record<string, unknown>, delayMs = this.o.delayMs): void {
    const fault = this.faults.shift();
    if (fault === 'lose') return;
    const copies = fault === 'duplicate' ? 2 : 1;
    for (let i = 0; i < copies; i += 1) this.o.timers.after(delayMs, () => void this.post(url, body));
  }

  /** Posts at once and resolves when the receiver answered (a notification sent before the pay's answer). */
  postNow(url: string, body: Record<string, unknown>): Promise<void> {
    return this.post(url, body);
  }

  private async post(url: string, body: Record<string, unknown>): Promise<void> {
    let answered = 0;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5_000),
      });
      answered = res.status;
      await res.arrayBuffer();
    } catch {
      // Orange does not retry: a notification the merchant did not take is simply gone.
    }
    this.sent.push({ url, body, answered });
  }
}
