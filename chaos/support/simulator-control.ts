import { sandboxFetch, type SandboxFetch } from '@mm/testing';

/** One push as the operator simulator's sandbox lists it. */
export interface SimulatorPush {
  partner_reference: string;
  state: 'PENDING' | 'OK' | 'canceled' | 'KO';
  txn_status: string | null;
  /** How many times the customer's phone rang for this reference (replays do not ring). */
  push_count: number;
  /** How many push requests arrived for it, replays included. */
  request_count: number;
  /** When the customer's answer (or the scripted outcome) came; null while PENDING. */
  decided_at: string | null;
}

export interface SimulatorRefund {
  partner_reference: string;
  original_partner_reference: string;
  amount: number;
  status: number;
  answer: { state?: string };
  /** How many times the operator really paid it out (replays do not pay). */
  refund_count: number;
}

/** A disbursement (cash-out payout) as the operator simulator's sandbox lists it. */
export interface SimulatorDisbursement {
  partner_reference: string;
  amount: number;
  answer: { state: 'OK'; disbursement_id: string } | { state: 'FAILED'; reason: string };
  /** How many times the operator really decided (paid or refused) it; a repeat of the reference does not count. */
  disbursement_count: number;
}

/** Fault settings of the simulator's partner API and callbacks (its /sandbox/faults route). */
export interface SimulatorFaults {
  latency_ms?: number;
  fail_with_5xx?: boolean;
  unreachable?: boolean;
  callbacks?: 'normal' | 'drop' | 'repeat' | 'out-of-order';
  callback_repeat?: number;
  callback_spread_ms?: number;
}

/** The test's hand on the operator simulator: its sandbox routes (with the sandbox token), never its partner API. */
export class SimulatorControl {
  private readonly sandbox: SandboxFetch;

  constructor(
    readonly url: string,
    sandboxToken: string,
  ) {
    this.sandbox = sandboxFetch(url, sandboxToken);
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.sandbox(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`simulator ${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async pushes(): Promise<Map<string, SimulatorPush>> {
    const { pushes } = await this.json<{ pushes: SimulatorPush[] }>('GET', '/sandbox/pushes');
    return new Map(pushes.map((p) => [p.partner_reference, p]));
  }

  async refunds(): Promise<Map<string, SimulatorRefund>> {
    const { refunds } = await this.json<{ refunds: SimulatorRefund[] }>('GET', '/sandbox/refunds');
    return new Map(refunds.map((r) => [r.partner_reference, r]));
  }

  async disbursements(): Promise<Map<string, SimulatorDisbursement>> {
    const { disbursements } = await this.json<{ disbursements: SimulatorDisbursement[] }>(
      'GET',
      '/sandbox/disbursements',
    );
    return new Map(disbursements.map((d) => [d.partner_reference, d]));
  }

  setFaults(faults: SimulatorFaults): Promise<SimulatorFaults> {
    return this.json('PUT', '/sandbox/faults', faults);
  }

  resetFaults(): Promise<SimulatorFaults> {
    return this.json('DELETE', '/sandbox/faults');
  }
}
