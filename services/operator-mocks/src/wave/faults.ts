import type { RequestHandler, Response } from 'express';
import type { TimerSet } from '@mm/fake-operator';

export const WAVE_OPERATIONS = [
  'createSession',
  'getSession',
  'searchSessions',
  'expireSession',
  'refundSession',
  'createPayout',
  'getPayout',
  'searchPayouts',
  'listTransactions',
  'getBalance',
] as const;
export type WaveOperation = (typeof WAVE_OPERATIONS)[number];

/**
 * status: answer it (5xx, 429...) without doing anything; hangMs: hold the request that long, do nothing,
 * then 504; lostAnswerMs: do it, but hold the answer that long (the caller times out on an outcome it
 * cannot know: the case a retried push or payout must not pay twice).
 */
export type WaveFault = { status: number } | { hangMs: number } | { lostAnswerMs: number };

export class FaultQueue {
  private readonly queued = new Map<WaveOperation, WaveFault[]>();

  add(operation: WaveOperation, fault: WaveFault, times = 1): void {
    const list = this.queued.get(operation) ?? [];
    for (let i = 0; i < times; i++) list.push(fault);
    this.queued.set(operation, list);
  }

  take(operation: WaveOperation): WaveFault | undefined {
    return this.queued.get(operation)?.shift();
  }

  clear(): void {
    this.queued.clear();
  }
}

/** Wave's error body: `{code, message, details}` with a kebab-case code. */
export function waveError(res: Response, status: number, code: string, message: string, details?: unknown[]): void {
  reply(res, status, details ? { code, message, details } : { code, message });
}

/** Every answer goes through here, so a lost-answer fault can hold it after the work is done. */
export function reply(res: Response, status: number, body?: unknown): void {
  const send = () => {
    if (res.writableEnded || res.destroyed) return;
    if (body === undefined) res.status(status).end();
    else res.status(status).json(body);
  };
  const timers = res.locals.waveTimers as TimerSet | undefined;
  const deferMs = res.locals.waveDeferMs as number | undefined;
  if (timers && deferMs) timers.after(deferMs, send);
  else send();
}

export function faultGate(queue: FaultQueue, timers: TimerSet, operation: WaveOperation): RequestHandler {
  return (_req, res, next) => {
    const fault = queue.take(operation);
    if (!fault) return next();
    if ('status' in fault) {
      const code =
        fault.status === 503
          ? 'service-unavailable'
          : fault.status === 429
            ? 'too-many-requests'
            : 'internal-server-error';
      return waveError(res, fault.status, code, 'injected by the mock');
    }
    if ('hangMs' in fault) {
      timers.after(fault.hangMs, () => waveError(res, 504, 'internal-server-error', 'gateway timeout'));
      return;
    }
    res.locals.waveTimers = timers;
    res.locals.waveDeferMs = fault.lostAnswerMs;
    next();
  };
}
