/**
 * What happens to result callbacks: sent once ('normal'), never ('drop'), several copies at once ('repeat'),
 * or shuffled in time with a stale PENDING copy arriving after the result ('out-of-order').
 */
export type CallbackMode = 'normal' | 'drop' | 'repeat' | 'out-of-order';

export const CALLBACK_MODES: readonly CallbackMode[] = ['normal', 'drop', 'repeat', 'out-of-order'];

export interface FaultSettings {
  /** Every partner API call waits this long before it is processed, even if the caller hangs up meanwhile. */
  latencyMs: number;
  /** Every partner API call answers 503 without processing anything. */
  failWith5xx: boolean;
  /** Every partner API call has its connection reset without processing anything. */
  unreachable: boolean;
  callbacks: CallbackMode;
  /** Copies of each result callback in 'repeat' mode. */
  callbackRepeat: number;
  /** 'out-of-order': each result waits up to this long, and its stale PENDING copy follows this long after it. */
  callbackSpreadMs: number;
}

export const NO_FAULTS: Readonly<FaultSettings> = Object.freeze({
  latencyMs: 0,
  failWith5xx: false,
  unreachable: false,
  callbacks: 'normal',
  callbackRepeat: 5,
  callbackSpreadMs: 500,
});

/**
 * The simulator's current fault settings, switched at run time by a chaos test. One instance per running
 * simulator, read at the moment each request or callback needs it, so a change applies to the next one.
 */
export class Faults {
  private settings: FaultSettings = { ...NO_FAULTS };

  current(): Readonly<FaultSettings> {
    return { ...this.settings };
  }

  /** Applies a partial change; the caller (the sandbox route) has validated it. */
  update(change: Partial<FaultSettings>): Readonly<FaultSettings> {
    this.settings = { ...this.settings, ...withoutUndefined(change) };
    return this.current();
  }

  reset(): Readonly<FaultSettings> {
    this.settings = { ...NO_FAULTS };
    return this.current();
  }
}

// The route maps every absent wire key to undefined; those must leave their setting as it is.
function withoutUndefined(change: Partial<FaultSettings>): Partial<FaultSettings> {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
}
