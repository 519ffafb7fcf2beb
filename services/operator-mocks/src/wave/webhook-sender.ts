import { signPayload } from '@mm/domain';
import type { TimerSet } from '@mm/fake-operator';
import { waveId } from './ids.js';
import type { CheckoutEventType } from './session-book.js';

/** What the next event suffers (docs.wave.com/webhook: the same event may arrive more than once). */
export type WebhookFault = 'drop' | 'duplicate' | 'stale' | 'badSignature' | 'early';

export interface WebhookSenderOptions {
  /** The business wallet's registered webhook URL; none registered: events go nowhere. */
  url: string | null;
  /** Signing secrets: one v1 each (two while a secret is rotated). */
  secrets: string[];
  delayMs: number;
  /** How long an 'early' event precedes the session's change. */
  earlyLeadMs: number;
  /** How old the `t` of a 'stale' event is. */
  staleBySeconds: number;
  timers: TimerSet;
  now: () => number;
}

export interface Delivery {
  eventId: string;
  type: string;
  reference: string | null;
  status: number | 'dropped' | 'failed';
  header: string;
}

/**
 * Posts Wave events `{id, type, data}` signed with the signing-secret strategy: `Wave-Signature:
 * t=<unix>,v1=<hex HMAC-SHA256(secret, t + raw body)>`. Fire and forget: Wave wants a 2xx first, the
 * mock only records what it got.
 */
export class WebhookSender {
  readonly deliveries: Delivery[] = [];
  private readonly faults: WebhookFault[] = [];
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly o: WebhookSenderOptions) {}

  injectFaults(faults: WebhookFault[]): void {
    this.faults.push(...faults);
  }

  /** Sends the event for a session change; returns how long the change must wait (an 'early' fault). */
  announce(type: CheckoutEventType, data: Record<string, unknown>): number {
    const fault = this.faults.shift();
    this.send(type, data, fault);
    return fault === 'early' ? this.o.earlyLeadMs : 0;
  }

  /** An event for a reference the merchant never created (another integration on the same wallet). */
  sendForUnknownReference(): string {
    const reference = waveId('unknown-ref-');
    const now = new Date(this.o.now()).toISOString();
    this.send(
      'checkout.session.completed',
      {
        id: waveId('cos-'),
        amount: '1000',
        currency: 'XOF',
        checkout_status: 'complete',
        payment_status: 'succeeded',
        transaction_id: waveId('T_', 12).toUpperCase(),
        client_reference: reference,
        last_payment_error: null,
        wave_launch_url: 'https://pay.wave.com/c/x',
        when_created: now,
        when_expires: now,
        when_completed: now,
      },
      undefined,
    );
    return reference;
  }

  stop(): void {
    for (const c of this.inFlight) c.abort();
    this.inFlight.clear();
  }

  private send(type: string, data: Record<string, unknown>, fault: WebhookFault | undefined): void {
    const event = { id: waveId('AE_', 12), type, data };
    // One body string for every copy: the signature covers these exact bytes.
    const body = JSON.stringify(event);
    const reference = typeof data.client_reference === 'string' ? data.client_reference : null;
    if (fault === 'drop' || !this.o.url) {
      this.deliveries.push({ eventId: event.id, type, reference, status: 'dropped', header: '' });
      return;
    }
    const copies = fault === 'duplicate' ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      this.o.timers.after(
        this.o.delayMs * (i + 1),
        () => void this.post(this.o.url as string, body, event.id, type, reference, fault),
      );
    }
  }

  private header(body: string, fault: WebhookFault | undefined): string {
    const nowS = Math.floor(this.o.now() / 1000);
    const t = String(fault === 'stale' ? nowS - this.o.staleBySeconds : nowS);
    const secrets = fault === 'badSignature' ? ['not-the-signing-secret'] : this.o.secrets;
    return [`t=${t}`, ...secrets.map((s) => `v1=${signPayload(s, t, body)}`)].join(',');
  }

  private async post(
    url: string,
    body: string,
    eventId: string,
    type: string,
    reference: string | null,
    fault: WebhookFault | undefined,
  ): Promise<void> {
    const header = this.header(body, fault);
    const controller = new AbortController();
    this.inFlight.add(controller);
    let status: Delivery['status'];
    try {
      const res = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json', 'Wave-Signature': header },
        signal: controller.signal,
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 'failed';
    } finally {
      this.inFlight.delete(controller);
    }
    this.deliveries.push({ eventId, type, reference, status, header });
  }
}
