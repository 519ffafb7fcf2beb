import type { RequestHandler } from 'express';
import type { Faults } from '../faults.js';
import type { Log, TimerSet } from '@mm/fake-operator';

/**
 * An operator that is down: the connection is reset, or 503 is answered, before anything (token, body) is looked
 * at, so nothing is registered. Mounted before the body parser so a reset really is immediate.
 */
export function refuseWhileDown(faults: Faults, log: Log): RequestHandler {
  return (req, res, next) => {
    const { unreachable, failWith5xx } = faults.current();
    if (unreachable) {
      log('fault.unreachable', { method: req.method, path: req.originalUrl });
      // An RST rather than a FIN: the caller sees ECONNRESET, as with a real operator's load balancer dropping it.
      req.socket.resetAndDestroy();
      return;
    }
    if (failWith5xx) {
      log('fault.unavailable', { method: req.method, path: req.originalUrl });
      res.status(503).json({ error: 'unavailable' });
      return;
    }
    next();
  };
}

/**
 * A slow operator: the call is processed only after latencyMs, and processed even when the caller hung up
 * meanwhile (a push our client timed out on is still registered; that is the case chaos tests need).
 * Mounted after the body parser so a caller hanging up during the wait cannot abort reading the body.
 */
export function delayWhileSlow(faults: Faults, timers: TimerSet, log: Log): RequestHandler {
  return (req, res, next) => {
    const { latencyMs } = faults.current();
    if (latencyMs === 0) {
      next();
      return;
    }
    const reference = (req.body as { partner_reference?: unknown } | undefined)?.partner_reference;
    const fields = {
      method: req.method,
      path: req.originalUrl,
      partner_reference: typeof reference === 'string' ? reference : undefined,
      latency_ms: latencyMs,
    };
    log('fault.delayed', fields);
    let callerGone = false;
    res.once('close', () => {
      callerGone = true;
    });
    // Not cancelled on 'close' (unlike hang()): the request must still be processed. close() clears it.
    timers.after(latencyMs, () => {
      // Worth a line: it explains a push registered whose answer nobody ever received.
      if (callerGone) log('fault.caller_gone', fields);
      next();
    });
  };
}
