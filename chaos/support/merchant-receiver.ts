import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  at: number;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown>;
  /** What this delivery was answered with ('hang' when it never was). */
  answered: number | 'hang';
  /** The endpoint's mode when it arrived. */
  mode: ReceiverMode;
}

/**
 * The merchant's webhook endpoint: records every delivery it sees, whatever it answers. A delivery
 * the dispatcher gave up on (timeout) is still recorded: the merchant did receive it, which is why
 * events are delivered at least once and must be handled idempotently by event_id.
 */
export async function startMerchantReceiver() {
  const deliveries: Delivery[] = [];
  let mode: ReceiverMode = { kind: 'ok' };
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try { body = JSON.parse(rawBody) as Record<string, unknown>; } catch { /* recorded as received */ }
      const now = mode;
      const delivery: Delivery = { at: Date.now(), headers: req.headers, rawBody, body, answered: 'hang', mode: now };
      deliveries.push(delivery);
      if (now.kind === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const answer = (code: number) => {
        delivery.answered = code;
        res.statusCode = code;
        res.end();
      };
      if (now.kind === 'slow') setTimeout(() => answer(200), now.delayMs);
      else answer(now.kind === 'status' ? now.code : 200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

  return {
    url,
    deliveries,
    setMode(next: ReceiverMode) { mode = next; },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type MerchantReceiver = Awaited<ReturnType<typeof startMerchantReceiver>>;
