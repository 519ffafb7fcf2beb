import { Router, type Response } from 'express';
import Joi from 'joi';
import { CALLBACK_MODES, type FaultSettings, type Faults } from '../faults.js';
import type { Log } from '@mm/fake-operator';

/** The wire form of FaultSettings: snake_case, like every other sandbox body. */
interface FaultsBody {
  latency_ms: number;
  fail_with_5xx: boolean;
  unreachable: boolean;
  callbacks: FaultSettings['callbacks'];
  callback_repeat: number;
  callback_spread_ms: number;
}

// Upper bounds only keep a typo (an extra zero or three) from wedging a chaos run for hours.
const changeSchema = Joi.object<Partial<FaultsBody>>({
  latency_ms: Joi.number().integer().min(0).max(600_000),
  fail_with_5xx: Joi.boolean(),
  unreachable: Joi.boolean(),
  callbacks: Joi.string().valid(...CALLBACK_MODES),
  callback_repeat: Joi.number().integer().min(1).max(100),
  callback_spread_ms: Joi.number().integer().min(0).max(600_000),
})
  .required()
  .prefs({ convert: false, abortEarly: false, allowUnknown: false });

/** GET / PUT / DELETE /sandbox/faults: what a chaos test flips at run time. Never faulted itself. */
export function faultsRouter(faults: Faults, log: Log): Router {
  const router = Router();
  const answer = (res: Response, settings: Readonly<FaultSettings>) => res.json(toBody(settings));

  router.get('/sandbox/faults', (_req, res) => {
    answer(res, faults.current());
  });

  router.put('/sandbox/faults', (req, res) => {
    const { value, error } = changeSchema.validate(req.body);
    if (error) {
      res.status(400).json({ error: 'invalid_request', message: error.message });
      return;
    }
    const settings = faults.update(fromBody(value));
    log('faults.changed', toBody(settings) as unknown as Record<string, unknown>);
    answer(res, settings);
  });

  router.delete('/sandbox/faults', (_req, res) => {
    const settings = faults.reset();
    log('faults.reset');
    answer(res, settings);
  });

  return router;
}

function toBody(s: Readonly<FaultSettings>): FaultsBody {
  return {
    latency_ms: s.latencyMs,
    fail_with_5xx: s.failWith5xx,
    unreachable: s.unreachable,
    callbacks: s.callbacks,
    callback_repeat: s.callbackRepeat,
    callback_spread_ms: s.callbackSpreadMs,
  };
}

function fromBody(b: Partial<FaultsBody>): Partial<FaultSettings> {
  return {
    latencyMs: b.latency_ms,
    failWith5xx: b.fail_with_5xx,
    unreachable: b.unreachable,
    callbacks: b.callbacks,
    callbackRepeat: b.callback_repeat,
    callbackSpreadMs: b.callback_spread_ms,
  };
}
