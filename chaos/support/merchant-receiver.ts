import type { IncomingHttpHeaders } from 'node:http';
import { startReceiver } from '@mm/testing';

/** How the merchant's endpoint behaves right now. */
export type ReceiverMode =
  | { kind: 'ok' }
  /** Answers this status at once (500, 410, ...). */
  | { kind: 'status'; code: number }
  /** Answers 200 after this delay (slower than the dispatcher's timeout makes it a timeout). */
  | { kind: 'slow'; delayMs: number }
  /** Takes the request and never answers (until the receiver closes). */
  | { kind: 'hang' };

export interface Delivery {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown>;
  /** The endpoint's mode when it arrived. */
  mode: ReceiverMode;
  /** When it arrived (Date.now()). */
  receivedAt: number;
}

function parsed(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * The merchant's webhook endpoint (the shared test receiver) switched between modes. A delivery the
 * dispatcher gave up on (timeout) is still recorded: the merchant did receive it, which is why events
 * are delivered at least once and must be handled idempotently by event_id.
 */
export async function startMerchantReceiver() {
  let mode: ReceiverMode = { kind: 'ok' };
  const deliveries: Delivery[] = [];
  const receiver = await startReceiver((_n, req) => {
    const now = mode;
    deliveries.push({
      headers: req.headers,
      rawBody: req.body,
      body: parsed(req.body),
      mode: now,
      receivedAt: Date.now(),
    });
    switch (now.kind) {
      case 'ok':
        return 200;
      case 'status':
        return now.code;
      case 'slow':
        return new Promise<number>((resolve) => setTimeout(() => resolve(200), now.delayMs));
      case 'hang':
        return 'hang';
    }
  });
  return {
    url: receiver.url,
    deliveries,
    setMode(next: ReceiverMode) {
      mode = next;
    },
    close: () => receiver.close(),
  };
}

export type MerchantReceiver = Awaited<ReturnType<typeof startMerchantReceiver>>;
