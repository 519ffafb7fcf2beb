/**
 * The automatic breaker of the worker processes, per operator account: after `threshold` unreachable
 * answers in a row (OperatorUnavailableError: no answer, or not in time) the account is marked down,
 * so the gateway answers 503 for its new cash-ins; then, every `probeIntervalMs`, one harmless call
 * (probe) is made, and the first answer marks it up again.
 *
 * The database row is the one truth between processes and replicas (the store): a mark-down applies
 * only to an account that is up, a mark-up only to an account the breaker marked down, so a staff
 * mark-down is never lifted, and replicas do not fight. Each tick re-reads which accounts are down by
 * the breaker: a process that did not trip probes them too (the one that did may have stopped), and
 * one whose account was marked up (or down for another reason) by staff forgets its own state.
 *
 * No I/O of its own: the store, the probe and the clock are given (tests run it without either).
 * What counts: an answer (a result, a refusal, a pending refund) resets the count, and marks the
 * account up if the breaker had it down; an error of ours (neither) counts for nothing.
 */
import { Counter, Gauge, type Registry } from '@mm/observability';
import type { AccountKey } from '../directory/operator-directory.js';
import {
  OperatorPendingError,
  OperatorRefusedError,
  OperatorUnavailableError,
  type OperatorAdapter,
} from '../operator-adapter.js';
import { aroundCalls } from '../around-calls.js';

export type BreakerOutcome = 'answered' | 'unreachable' | 'other';

export interface BreakerStore {
  /** Marks the account down with the breaker's reason unless it is down already; true when this call did. */
  markDown(key: AccountKey, consecutive: number): Promise<boolean>;
  /** Marks the account up only if the breaker marked it down; true when this call did. */
  markUp(key: AccountKey): Promise<boolean>;
  /** The accounts down by the breaker now (any process's). */
  downByBreaker(): Promise<AccountKey[]>;
}

export interface OperatorBreakerOptions {
  /** Unreachable answers in a row that open the breaker; 0: never. */
  threshold: number;
  probeIntervalMs: number;
  store: BreakerStore;
  /** One harmless call to the account's operator, through the adapter `wrap` returned (its outcome is recorded there). */
  probe(key: AccountKey): Promise<void>;
  now?: () => number;
  /** mm_operator_breaker_state{account} and mm_operator_breaker_mark_downs_total{account}. */
  registry?: Registry;
  /** A store or probe failure (logged; the breaker carries on). */
  onError?(err: unknown, what: string, account: string): void;
  /** The account marked down or up by this process (logged). */
  onChange?(account: string, change: 'down' | 'up'): void;
}

interface AccountState {
  key: AccountKey;
  consecutive: number;
  open: boolean;
  /** A mark-down or mark-up in flight: a tick does not overrule it. */
  busy: boolean;
  nextProbeAt: number;
  probing: boolean;
}

const idOf = (k: AccountKey) => `${k.countryCode}:${k.operator}`;

export function breakerOutcomeOf(err: unknown): BreakerOutcome {
  if (err instanceof OperatorUnavailableError) return 'unreachable';
  if (err instanceof OperatorRefusedError || err instanceof OperatorPendingError) return 'answered';
  return 'other';
}

export class OperatorBreaker {
  private readonly accounts = new Map<string, AccountState>();
  private readonly now: () => number;
  private readonly stateGauge?: Gauge;
  private readonly markDowns?: Counter;

  constructor(private readonly o: OperatorBreakerOptions) {
    this.now = o.now ?? Date.now;
    if (o.registry) {
      this.stateGauge = new Gauge({
        name: 'mm_operator_breaker_state',
        help: 'The automatic breaker of each operator account in this process: 0 closed, 1 open (marked down after consecutive unreachable answers, probed until it answers).',
        labelNames: ['account'],
        registers: [o.registry],
      });
      this.markDowns = new Counter({
        name: 'mm_operator_breaker_mark_downs_total',
        help: "Operator accounts marked down automatically by this process's breaker.",
        labelNames: ['account'],
        registers: [o.registry],
      });
    }
  }

  get enabled(): boolean {
    return this.o.threshold > 0;
  }

  isOpen(key: AccountKey): boolean {
    return this.accounts.get(idOf(key))?.open ?? false;
  }

  private stateOf(key: AccountKey): AccountState {
    const id = idOf(key);
    let s = this.accounts.get(id);
    if (!s) {
      s = {
        key: { countryCode: key.countryCode, operator: key.operator },
        consecutive: 0,
        open: false,
        busy: false,
        nextProbeAt: 0,
        probing: false,
      };
      this.accounts.set(id, s);
      this.stateGauge?.set({ account: id }, 0);
    }
    return s;
  }

  private setOpen(s: AccountState, open: boolean): void {
    s.open = open;
    if (!open) s.consecutive = 0;
    this.stateGauge?.set({ account: idOf(s.key) }, open ? 1 : 0);
  }

  /** One call's outcome. Never throws; resolves once the mark-down or mark-up it causes is written. */
  async record(key: AccountKey, outcome: BreakerOutcome): Promise<void> {
    if (!this.enabled || outcome === 'other') return;
    const s = this.stateOf(key);
    const id = idOf(key);
    if (outcome === 'unreachable') {
      s.consecutive++;
      if (s.open || s.consecutive < this.o.threshold) return;
      this.setOpen(s, true);
      s.nextProbeAt = this.now() + this.o.probeIntervalMs;
      s.busy = true;
      try {
        if (await this.o.store.markDown(s.key, s.consecutive)) {
          this.markDowns?.inc({ account: id });
          this.o.onChange?.(id, 'down');
        }
      } catch (err) {
        // Not written: the next tick finds the row up, and the count starts again.
        this.o.onError?.(err, 'mark down', id);
      } finally {
        s.busy = false;
      }
      return;
    }
    s.consecutive = 0;
    if (!s.open || s.busy) return;
    s.busy = true;
    try {
      // Answered: up again, if the breaker had it down (a staff mark-down stays).
      if (await this.o.store.markUp(s.key)) this.o.onChange?.(id, 'up');
      this.setOpen(s, false);
    } catch (err) {
      this.o.onError?.(err, 'mark up', id);
    } finally {
      s.busy = false;
    }
  }

  /**
   * Re-reads which accounts the breaker has down (adopting those another process tripped, forgetting
   * those staff changed since), then probes each open account whose probe is due. Never throws.
   */
  async tick(): Promise<void> {
    if (!this.enabled) return;
    let down: AccountKey[] | null = null;
    try {
      down = await this.o.store.downByBreaker();
    } catch (err) {
      this.o.onError?.(err, 'read the accounts down', '*');
    }
    if (down) {
      const ids = new Set(down.map(idOf));
      for (const key of down) {
        const s = this.stateOf(key);
        if (!s.open) {
          this.setOpen(s, true);
          s.nextProbeAt = this.now();
        }
      }
      for (const [id, s] of this.accounts) {
        if (s.open && !s.busy && !ids.has(id)) this.setOpen(s, false);
      }
    }
    const due = [...this.accounts.values()].filter((s) => s.open && !s.probing && this.now() >= s.nextProbeAt);
    await Promise.all(
      due.map(async (s) => {
        s.probing = true;
        s.nextProbeAt = this.now() + this.o.probeIntervalMs;
        try {
          await this.o.probe(s.key);
        } catch (err) {
          this.o.onError?.(err, 'probe', idOf(s.key));
        } finally {
          s.probing = false;
        }
      }),
    );
  }

  /** The adapter with each call's outcome recorded for its account (answers and errors passed through). */
  wrap(adapter: OperatorAdapter, key: AccountKey): OperatorAdapter {
    if (!this.enabled) return adapter;
    const watched = async <T>(call: () => Promise<T>): Promise<T> => {
      let answer: T;
      try {
        answer = await call();
      } catch (err) {
        await this.record(key, breakerOutcomeOf(err));
        throw err;
      }
      await this.record(key, 'answered');
      return answer;
    };
    return aroundCalls(adapter, (_operation, call) => watched(call));
  }
}

/**
 * The probe's question: the status of a payment nobody made (a reference of the probe's own, never
 * one of ours: MM, CO and RF), with a made-up operator id too, since some operators are asked by their
 * id only (Orange). Any answer, "not found" included, means the operator is reachable.
 */
export function probeLookup(key: AccountKey, random: () => string): Parameters<OperatorAdapter['queryStatus']>[0] {
  const ref = `PB${random()}`;
  return {
    partnerReference: ref,
    providerSessionId: ref,
    msisdn: '+0',
    amount: 1,
    currency: 'XOF',
    countryCode: key.countryCode,
  };
}
