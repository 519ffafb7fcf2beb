import express from 'express';
import type { OrangeFault, OrangeFaults } from './faults.js';
import type { NotificationFault, Notifier } from './notifier.js';
import type { TokenIssuer } from './tokens.js';

/** The HTTP face of a mock's control object (under /_mock), for tests and demos driving it from outside. */
export function mockControlRoutes(faults: OrangeFaults, notifier: Notifier, tokens: TokenIssuer): express.Router {
  const router = express.Router();
  router.post('/faults', (req, res) => {
    const { operation, fault, times } = req.body as { operation: string; fault: OrangeFault; times?: number };
    faults.add(operation, fault, times ?? 1);
    res.status(204).end();
  });
  router.delete('/faults', (_req, res) => {
    faults.clear();
    res.status(204).end();
  });
  router.post('/notifications/faults', (req, res) => {
    const { fault, times } = req.body as { fault: NotificationFault; times?: number };
    notifier.fault(fault, times ?? 1);
    res.status(204).end();
  });
  router.post('/tokens/expire', (_req, res) => {
    tokens.expireAll();
    res.status(204).end();
  });
  return router;
}
