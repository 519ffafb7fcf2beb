import { deploymentModeViolation, type DeploymentMode } from '@mm/domain';
import { OperatorRefusedError, type OperatorAdapter } from '../operator-adapter.js';
import { createAccountAdapter, type AccountConfig } from '../registry.js';

/** An operator account as the services that call the operator read it (credentials opened). */
export interface AccountRecord {
  countryCode: string;
  operator: string;
  api: string;
  baseUrl: string | null;
  credentials: Record<string, string> | null;
  settings: Record<string, unknown>;
}

export interface AccountKey {
  countryCode: string;
  operator: string;
}

/** What the workers need of the directory: the adapter of the account a payment went through. */
export interface OperatorAdapters<A = OperatorAdapter> {
  adapterFor(key: AccountKey): Promise<A>;
}

export interface OperatorDirectoryOptions {
  load(key: AccountKey): Promise<AccountRecord | null>;
  /** Reference-change notifications (PostgreSQL LISTEN): an adapter is rebuilt after any change. */
  changes: { readonly generation: number; readonly listening: boolean };
  /** Longest an adapter is kept when notifications are not heard. */
  ttlMs: number;
  /** What a SIMULATOR account without a base URL or credentials of its own uses: the services' OPERATOR_* settings. */
  simulator: AccountConfig;
  /** Tests: the adapter every SIMULATOR account uses instead. */
  simulatorAdapter?: OperatorAdapter;
  timeoutMs: number;
  /**
   * DEPLOYMENT_MODE: an account the mode forbids gets no adapter (every call refused, nothing sent): live,
   * any simulator account; a sandbox, one set up for its operator's live system outside the deployment.
   * The services refuse to start on such accounts, and staff cannot save them; this holds for a row changed
   * behind their back. Absent: a sandbox.
   */
  mode?: DeploymentMode;
  /** Wraps each adapter built (metrics per account). */
  wrap?(adapter: OperatorAdapter, key: AccountKey): OperatorAdapter;
  now?: () => number;
}

const keyOf = (k: AccountKey) => `${k.countryCode}:${k.operator}`;

/**
 * The adapter of each operator account, built from its row and kept while nothing changed: the
 * bridge, the expiry worker and the refund worker ask it for the account a transaction went through
 * and stay operator-agnostic. A disabled or marked-down account still answers: payments already
 * under way with it must be finished (status queries, refunds); only new ones are refused, by routing.
 * An account kept across changes keeps its adapter's access token; a changed one starts afresh.
 */
export class OperatorDirectory implements OperatorAdapters {
  private readonly adapters = new Map<string, { adapter: OperatorAdapter; generation: number; builtAt: number }>();
  private readonly now: () => number;

  constructor(private readonly o: OperatorDirectoryOptions) {
    this.now = o.now ?? Date.now;
  }

  async adapterFor(key: AccountKey): Promise<OperatorAdapter> {
    const id = keyOf(key);
    const generation = this.o.changes.generation;
    const kept = this.adapters.get(id);
    if (
      kept &&
      kept.generation === generation &&
      (this.o.changes.listening || this.now() - kept.builtAt < this.o.ttlMs)
    )
      return kept.adapter;
    const record = await this.o.load(key);
    // A subsidiary without any account is served by the simulator of the settings, as before accounts existed.
    if (!record && key.operator !== 'SIMULATOR') throw new Error(`no operator account ${id}`);
    const mode = this.o.mode ?? 'sandbox';
    // Live, a simulator account is refused enabled or not: no payment of a live deployment was ever its.
    const forbidden = record
      ? deploymentModeViolation(mode, { ...record, enabled: true })
      : mode === 'live'
        ? `the simulator of the settings serves ${key.countryCode}: a live deployment sends no payment to the simulator`
        : null;
    if (forbidden) throw new OperatorRefusedError('push', 403, `DEPLOYMENT_MODE=${mode}: ${forbidden}`);
    const built = record
      ? this.build(record)
      : (this.o.simulatorAdapter ?? createAccountAdapter('simulator', this.o.simulator));
    const adapter = this.o.wrap ? this.o.wrap(built, key) : built;
    this.adapters.set(id, { adapter, generation, builtAt: this.now() });
    return adapter;
  }

  /**
   * Moves on every change notified for the reference data (operator accounts among them) and on every loss
   * or gain of the notifications: what follows the accounts besides their adapters (the bridge's daily
   * reconciliation schedules) compares it with the value it last saw. While `listening` is false, changes
   * are not heard: re-read every `ttlMs` instead.
   */
  get generation(): number {
    return this.o.changes.generation;
  }

  get listening(): boolean {
    return this.o.changes.listening;
  }

  /** The simulator as the environment describes it (the callback route /operator/callbacks/simulator). */
  simulatorAdapter(): OperatorAdapter {
    const built = this.o.simulatorAdapter ?? createAccountAdapter('simulator', this.o.simulator);
    return this.o.wrap ? this.o.wrap(built, { countryCode: '*', operator: 'SIMULATOR' }) : built;
  }

  private build(r: AccountRecord): OperatorAdapter {
    if (r.api === 'simulator' && r.baseUrl === null && r.credentials === null) {
      return this.o.simulatorAdapter ?? createAccountAdapter('simulator', this.o.simulator);
    }
    if (r.baseUrl === null) throw new Error(`operator account ${keyOf(r)} has no base URL`);
    if (r.credentials === null) throw new Error(`operator account ${keyOf(r)} has no credentials`);
    return createAccountAdapter(r.api, {
      baseUrl: r.baseUrl,
      credentials: r.credentials,
      settings: r.settings,
      timeoutMs: this.o.timeoutMs,
    });
  }
}
