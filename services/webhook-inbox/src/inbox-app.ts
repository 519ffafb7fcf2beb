import express, { type Express } from 'express';
import { signatureMatches, timestampWithinTolerance } from '@mm/domain';

export interface InboxEntry {
  received_at: string;
  signature_valid: boolean;
  event_id: string | undefined;
  body: unknown;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The demo merchant's webhook endpoint for local runs: verifies the signature as a merchant should,
 * answers 2xx at once, keeps the last 200 events in memory and shows them.
 */
export function createInboxApp(secret: string, now: () => number = Date.now): { app: Express; entries: InboxEntry[] } {
  const entries: InboxEntry[] = [];
  const app = express();
  app.post('/webhooks', express.raw({ type: () => true, limit: '64kb' }), (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const ts = req.get('x-service-timestamp') ?? '';
    const valid =
      timestampWithinTolerance(ts, now(), 300) &&
      signatureMatches(secret, ts, raw, req.get('x-service-signature') ?? '');
    let body: unknown = null;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = raw.toString('utf8');
    }
    entries.unshift({
      received_at: new Date(now()).toISOString(),
      signature_valid: valid,
      event_id: req.get('x-service-event-id'),
      body,
    });
    entries.splice(200);
    res.status(valid ? 200 : 401).json({ received: valid });
  });
  app.get('/webhooks', (_req, res) => {
    res.json({ data: entries });
  });
  app.get('/', (_req, res) => {
    const rows = entries
      .map((e) => {
        const b = (e.body ?? {}) as Record<string, unknown>;
        return `<tr><td>${escape(e.received_at)}</td><td>${e.signature_valid ? 'valid' : 'INVALID'}</td><td>${escape(String(b.event ?? ''))}</td><td>${escape(String(b.merchant_order_id ?? ''))}</td><td><b>${escape(String(b.status ?? ''))}</b></td><td>${escape(String(b.amount ?? ''))} ${escape(String(b.currency ?? ''))}</td></tr>`;
      })
      .join('');
    res.type('html')
      .send(`<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>Demo merchant webhooks</title>
<h1>Webhooks received by the demo merchant</h1><table border="1" cellpadding="4"><tr><th>received</th><th>signature</th><th>event</th><th>order</th><th>status</th><th>amount</th></tr>${rows}</table>`);
  });
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  return { app, entries };
}
