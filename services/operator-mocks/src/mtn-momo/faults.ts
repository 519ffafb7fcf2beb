import type { Request, RequestHandler } from 'express';
import type { TimerSet } from '@mm/fake-operator';
import { sendAnswer, type Answer } from './answer.js';

export const MTN_OPERATIONS = [
  'token',
  'requesttopay',
  'requesttopay-status',
  'refund',
  'refund-status',
  'transfer',
  'transfer-status',
  'balance',
] as const;
export type MtnOperation = (typeof MTN_OPERATIONS)[number];

/**
 * A failure of the next call(s) of an operation (operators-reference.md section 3: 5xx, timeouts, slow answers).
 * `afterProcessing`: MTN does the work, then the answer fails or comes late (the outcome is unknown to the caller).
 */
export type MtnFault =
  | { status: number; body?: unknown; afterProcessing?: boolean }
  /** The answer comes this late (past the caller's timeout: a hang). */
  | { hangMs: number; afterProcessing?: boolean };

const DEFAULT_BODIES: Record<number, unknown> = {
  500: { code: 'INTERNAL_PROCESSING_ERROR', message: 'An internal error occurred while processing.' },
  503: { code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable, try again later.' },
};

export class MtnFaults {
  private readonly queued = new Map<MtnOperation, MtnFault[]>();

  add(operation: MtnOperation, fault: MtnFault, times = 1): void {
    const queue = this.queued.get(operation) ?? [];
    for (let i = 0; i < times; i += 1) queue.push(fault);
    this.queued.set(operation, queue);
  }

  take(operation: MtnOperation): MtnFault | undefined {
    return this.queued.get(operation)?.shift();
  }

  clear(): void {
    this.queued.clear();
  }
}

/** A route computing its Answer, wrapped so a queued fault replaces, delays or follows its work. */
export function faulted(
  operation: MtnOperation,
  faults: MtnFaults,
  timers: TimerSet,
  handler: (req: Request) => Answer | Promise<Answer>,
): RequestHandler {
  const sleep = (ms: number) => new Promise<void>((resolve) => timers.after(ms, resolve));
  return async (req, res) => {
    const fault = faults.take(operation);
    if (!fault) return sendAnswer(res, await handler(req));
    const answer = fault.afterProcessing ? await handler(req) : undefined;
    if ('status' in fault)
      return sendAnswer(res, {
        status: fault.status,
        body: fault.body ?? DEFAULT_BODIES[fault.status] ?? { code: 'ERROR', message: `HTTP ${fault.status}` },
      });
    await sleep(fault.hangMs);
    sendAnswer(res, answer ?? (await handler(req)));
  };
}
