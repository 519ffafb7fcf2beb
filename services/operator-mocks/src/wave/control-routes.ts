import express, { type Router } from 'express';
import type { WaveMockControl } from './wave-mock.js';
import { WAVE_OPERATIONS, type WaveFault, type WaveOperation } from './faults.js';
import type { WebhookFault } from './webhook-sender.js';

const WEBHOOK_FAULTS: readonly WebhookFault[] = ['drop', 'duplicate', 'stale', 'badSignature', 'early'];

/** The control object over HTTP, under /_mock (for tests in another process and the demo). */
export function controlRouter(control: WaveMockControl): Router {
  const r = express.Router();
  const bad = (res: express.Response, message: string) => res.status(400).json({ error: message });
  const withSession =
    (fn: (id: string, body: Record<string, unknown>) => boolean): express.RequestHandler =>
    (req, res) => {
      if (!fn(String(req.params.id), (req.body ?? {}) as Record<string, unknown>))
        return res.status(404).json({ error: 'unknown session' });
      res.json({ session: control.session(String(req.params.id)) });
    };
  r.post(
    '/_mock/sessions/:id/complete',
    withSession((id) => control.complete(id)),
  );
  r.post(
    '/_mock/sessions/:id/fail',
    withSession((id, b) =>
      control.fail(
        id,
        typeof b.code === 'string' ? b.code : 'payment-failure',
        typeof b.message === 'string' ? b.message : undefined,
      ),
    ),
  );
  r.post(
    '/_mock/sessions/:id/expire-now',
    withSession((id) => control.expireNow(id)),
  );
  r.post('/_mock/faults', (req, res) => {
    const { operation, times, status, hangMs, lostAnswerMs } = (req.body ?? {}) as Record<string, unknown>;
    if (!WAVE_OPERATIONS.includes(operation as WaveOperation))
      return bad(res, `operation must be one of ${WAVE_OPERATIONS.join(', ')}`);
    const fault: WaveFault | null =
      typeof status === 'number'
        ? { status }
        : typeof hangMs === 'number'
          ? { hangMs }
          : typeof lostAnswerMs === 'number'
            ? { lostAnswerMs }
            : null;
    if (!fault) return bad(res, 'give status, hangMs or lostAnswerMs');
    control.fault(operation as WaveOperation, fault, typeof times === 'number' ? times : 1);
    res.status(204).end();
  });
  r.post('/_mock/webhook-faults', (req, res) => {
    const faults = (req.body as { faults?: unknown })?.faults;
    if (!Array.isArray(faults) || !faults.every((f) => WEBHOOK_FAULTS.includes(f as WebhookFault)))
      return bad(res, `faults: array of ${WEBHOOK_FAULTS.join(', ')}`);
    control.webhookFaults(faults as WebhookFault[]);
    res.status(204).end();
  });
  r.get('/_mock/records', (_req, res) => {
    res.json(control.records());
  });
  r.post('/_mock/webhooks/unknown-reference', (_req, res) => {
    res.json({ clientReference: control.sendEventForUnknownReference() });
  });
  return r;
}
