import type { Db } from '@mm/db';
import { verifyLedger } from '@mm/db/ledger';
import { waitFor } from '@mm/testing';
import type { ChaosSystem } from '@mm/chaos/system';

export interface Settled {
  /** Cash-ins of the phase, by status once everything is terminal. */
  statuses: Record<string, number>;
  /** Cash-ins that are not SUCCESS, or SUCCESS without a webhook received. */
  lost: number;
  /** Operator confirmation (simulator's decided_at) to the merchant's receiver, one per cash-in, ms. */
  webhookLatenciesMs: number[];
  /** Deliveries received from the first confirmation of the phase to its last delivery, per second. */
  webhooksPerS: number;
  ledgerOk: boolean;
  ledgerProblems: string[];
}

/**
 * Waits (bounded) until every cash-in whose merchant_order_id starts with `prefix` is terminal and each
 * SUCCESS has reached the merchant's endpoint, then checks the ledger: a benchmark that loses or
 * double-counts money is not a result. The endpoint is the system's own receiver, or, for cash-ins that
 * named another one as notify_url, what that one received (`arrivals`: merchant_order_id → Unix ms of
 * its first SUCCESS webhook, the load process's receiver, closed by now).
 */
export async function settle(
  sys: ChaosSystem,
  prefix: string,
  arrivals?: Readonly<Record<string, number>>,
): Promise<Settled> {
  const db: Db = sys.db;
  const delivered = () => {
    if (arrivals) return new Map(Object.entries(arrivals));
    const seen = new Map<string, number>();
    for (const d of sys.receiver.deliveries) {
      const id = d.body.merchant_order_id as string | undefined;
      if (id?.startsWith(`${prefix}-`) && d.body.status === 'SUCCESS' && !seen.has(id)) seen.set(id, d.receivedAt);
    }
    return seen;
  };
  const rows = () => db.$queryRaw<{ merchant_order_id: string; status: string; provider_reference: string | null }[]>`
    SELECT merchant_order_id, status::text AS status, provider_reference FROM transactions WHERE merchant_order_id LIKE ${`${prefix}-%`}`;
  const terminal = new Set(['SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED']);
  await waitFor(
    async () => {
      const all = await rows();
      const arrived = delivered();
      // Arrivals given are all there will be: only the states are waited for, a webhook missing from them is lost.
      return all.every(
        (r) =>
          terminal.has(r.status) &&
          (arrivals !== undefined || r.status !== 'SUCCESS' || arrived.has(r.merchant_order_id)),
      );
    },
    { what: `cash-ins ${prefix} settled and notified`, timeoutMs: 180_000, intervalMs: 500 },
  );

  const all = await rows();
  const arrived = delivered();
  const pushes = await sys.simulator.pushes();
  const decidedAt = (reference: string) => {
    const at = pushes.get(reference)?.decided_at;
    return at ? Date.parse(at) : null;
  };
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let firstDecision = Infinity;
  let lastArrival = 0;
  for (const r of all) {
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const decided = r.provider_reference ? decidedAt(r.provider_reference) : null;
    const at = arrived.get(r.merchant_order_id);
    if (decided && at) {
      latencies.push(at - decided);
      firstDecision = Math.min(firstDecision, decided);
      lastArrival = Math.max(lastArrival, at);
    }
  }
  const ledger = await verifyLedger(db);
  return {
    statuses,
    lost: all.filter((r) => r.status !== 'SUCCESS' || !arrived.has(r.merchant_order_id)).length,
    webhookLatenciesMs: latencies,
    webhooksPerS: latencies.length / Math.max((lastArrival - firstDecision) / 1000, 0.001),
    ledgerOk: ledger.ok,
    ledgerProblems: ledger.problems.map((p) => `${p.check}: ${p.detail}`),
  };
}
