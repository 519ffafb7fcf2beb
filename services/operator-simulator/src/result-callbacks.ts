import { randomInt } from 'node:crypto';
import type { CallbackSender } from './callback-sender.js';
import type { Faults } from './faults.js';
import type { Log, TimerSet } from '@mm/fake-operator';
import type { CallbackBody } from './wire.js';

export interface ResultCallbacksDeps {
  sender: CallbackSender;
  faults: Faults;
  timers: TimerSet;
  log: Log;
}

/**
 * Sends a push's result callback the way the current callback fault says: what a flaky real operator does to
 * our callback route. The result itself is stored before this runs, so a status query always tells the truth.
 */
export class ResultCallbacks {
  constructor(private readonly deps: ResultCallbacksDeps) {}

  send(url: string, body: CallbackBody): void {
    const { sender, faults, log } = this.deps;
    const { callbacks, callbackRepeat, callbackSpreadMs } = faults.current();
    const reference = body.partner_reference;
    switch (callbacks) {
      case 'normal':
        void sender.send(url, body);
        return;
      case 'drop':
        log('callback.dropped', { partner_reference: reference, state: body.state });
        return;
      case 'repeat':
        log('callback.repeated', { partner_reference: reference, copies: callbackRepeat });
        for (let copy = 0; copy < callbackRepeat; copy++) void sender.send(url, body);
        return;
      case 'out-of-order':
        this.shuffled(url, body, callbackSpreadMs);
        return;
    }
  }

  /**
   * A random delay in [0, spreadMs] shuffles results of different pushes; the stale PENDING copy is sent
   * spreadMs after the result's first attempt settled, so it really arrives after it (a fixed timer would
   * not guarantee that when spreadMs is small).
   */
  private shuffled(url: string, body: CallbackBody, spreadMs: number): void {
    const { sender, timers, log } = this.deps;
    const delayMs = randomInt(spreadMs + 1);
    log('callback.delayed', { partner_reference: body.partner_reference, delay_ms: delayMs, stale_after_ms: spreadMs });
    timers.after(delayMs, () => {
      void sender.send(url, body).then(() => {
        timers.after(spreadMs, () => {
          log('callback.stale_sent', { partner_reference: body.partner_reference });
          void sender.send(url, stalePendingOf(body));
        });
      });
    });
  }
}

/** The callback of the push's earlier PENDING state, same keys in the same order as a result's. */
function stalePendingOf(body: CallbackBody): CallbackBody {
  return { ...body, provider_tx_id: null, state: 'PENDING', txn_status: null, failure_reason: null };
}
