import type { IncomingHttpHeaders } from 'node:http';
import { startReceiver } from '@mm/testing';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown>;
}

/** A merchant's webhook endpoint (the shared test receiver): records every delivery; answers with `status()` (200 by default). */
export async function startWebhookReceiver(): Promise<{
  url: string;
  received: ReceivedWebhook[];
  status: (code: number) => void;
  close(): Promise<void>;
}> {
  const received: ReceivedWebhook[] = [];
  let answer = 200;
  const receiver = await startReceiver((_n, req) => {
    received.push({ headers: req.headers, rawBody: req.body, body: JSON.parse(req.body) as Record<string, unknown> });
    return answer;
  });
  return {
    url: receiver.url,
    received,
    status: (code) => {
      answer = code;
    },
    close: () => receiver.close(),
  };
}
