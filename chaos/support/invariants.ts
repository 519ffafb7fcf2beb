import { verifyLedger } from '@mm/db/ledger';
import { signatureMatches } from '@mm/domain';
import { waitFor } from '@mm/testing';
import { cashoutViolations } from './cashout-invariants.js';
import type { ChaosSystem } from './chaos-system.js';
import { groupBy } from './group-by.js';
import { OperatorRecords } from './operator-records.js';

const NOTIFIED = ['SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED'];
/** Slack past expires_at for the expiry check to run (relay grace, lock, operator answer). */
const EXPIRY_SLACK_MS = 20_000;
/** A PENDING cash-in expiring sooner than this is waited for by settle() (the chaos suites' windows are seconds). */
const EXPIRY_AHEAD_MS = 10_000;

/**
 * Waits until the system has nothing left to do: no cash-in before PENDING, none past its expiry or
 * PENDING here while the operator has decided it, no refund or webhook event in flight, and nothing
 * moved for a while. The quiet spell is what the rules cannot see: a push the simulator accepted a
 * moment ago and will decide by itself (SIM_OUTCOME_DELAY_MS) is PENDING on both sides, within its
 * window, exactly like one no customer will ever answer. Checked the moment the rules pass, such a
 * cash-in was captured while violations() read, between its rows and its balances (seen in CI: a
 * balance "above what the rows call for", a webhook event read PENDING after settling). Fails with
 * what is still open after the deadline.
 */
export async function settle(sys: ChaosSystem, timeoutMs = 120_000): Promise<void> {
  const quietMs = sys.outcomeDelayMs + 1000;
  let last: { progress: string; since: number } | null = null;
  await waitFor(
    async () => {
      if ((await openWork(sys)).length > 0) {
        last = null;
        return undefined;
      }
      const now = Date.now();
      const seen = await progress(sys);
      if (!last || last.progress !== seen) last = { progress: seen, since: now };
      return now - last.since >= quietMs || undefined;
    },
    { what: 'the system to settle', timeoutMs, intervalMs: 250 },
  ).catch(async (err: Error) => {
    throw new Error(`${err.message}\nstill open: ${JSON.stringify(await openWork(sys), null, 1)}`);
  });
}

/** What has happened so far, as counts of rows that only ever grow: equal twice, nothing moved in between. */
async function progress(sys: ChaosSystem): Promise<string> {
  const rows = await sys.db.$queryRaw<Record<string, bigint>[]>`
    SELECT (SELECT count(*) FROM transactions) AS transactions, (SELECT count(*) FROM transaction_events) AS moves,
           (SELECT count(*) FROM journal_entries) AS journals, (SELECT count(*) FROM refunds) AS refunds,
           (SELECT count(*) FROM webhook_events) AS events, (SELECT count(*) FROM webhook_attempts) AS attempts`;
  return JSON.stringify(rows[0], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

async function openWork(sys: ChaosSystem): Promise<string[]> {
  const [early, undecided, refunds, hooks, operators] = await Promise.all([
    sys.db.transaction.findMany({
      where: { status: { in: ['CREATED', 'INITIATED'] } },
      select: { id: true, status: true },
    }),
    sys.db.transaction.findMany({
      where: { status: { in: ['PENDING', 'EXPIRED'] } },
      select: { id: true, status: true, expiresAt: true, providerReference: true, countryCode: true, operator: true },
    }),
    sys.db.refund.findMany({ where: { status: 'PENDING' }, select: { id: true } }),
    sys.db.webhookEvent.findMany({ where: { status: 'PENDING' }, select: { id: true, attemptCount: true } }),
    OperatorRecords.read(sys),
  ]);
  const now = Date.now();
  return [
    ...early.map((t) => `transaction ${t.id} ${t.status}`),
    // Past its expiry, or about to be: its expiry check would move it while violations() read.
    ...undecided
      .filter((t) => t.status === 'PENDING' && (!t.expiresAt || t.expiresAt.getTime() < now + EXPIRY_AHEAD_MS))
      .map((t) => `transaction ${t.id} PENDING, expires at ${t.expiresAt?.toISOString() ?? 'never'}`),
    // Its result is on its way (a callback retried, a poll due, a late confirmation): not settled yet.
    ...undecided
      .filter((t) => {
        const operator = operators.view(t);
        return t.status === 'PENDING' ? operator?.decided === true : operator?.taken === true;
      })
      .map(
        (t) =>
          `transaction ${t.id} ${t.status}, decided otherwise by the operator (${t.operator} ${t.countryCode}: ${operators.view(t)?.state})`,
      ),
    ...refunds.map((r) => `refund ${r.id} PENDING`),
    ...hooks.map((h) => `webhook event ${h.id} PENDING after ${h.attemptCount} attempts`),
  ];
}

/**
 * The invariants of issue 4, checked on the rows in PostgreSQL, the operator's own records and the
 * bytes the merchant received. Returns every violation found (an empty list is a pass).
 */
export async function violations(sys: ChaosSystem): Promise<string[]> {
  const found: string[] = [];
  const now = Date.now();
  const [transactions, events, webhookEvents, refunds, operators, ledger] = await Promise.all([
    sys.db.transaction.findMany(),
    sys.db.transactionEvent.findMany({ orderBy: { id: 'asc' } }),
    sys.db.webhookEvent.findMany(),
    sys.db.refund.findMany(),
    OperatorRecords.read(sys),
    verifyLedger(sys.db),
  ]);

  // Every cash-in decided, or PENDING inside its confirmation window.
  for (const t of transactions) {
    if (t.status === 'CREATED' || t.status === 'INITIATED') found.push(`stuck: ${t.id} is ${t.status}`);
    if (t.status === 'PENDING' && (!t.expiresAt || t.expiresAt.getTime() + EXPIRY_SLACK_MS < now))
      found.push(`stuck: ${t.id} PENDING past its expiry`);
  }

  // One payment created at the operator per cash-in (one USSD push, request to pay, pay or checkout
  // session), and our outcome agrees with what the operator did. Cash-outs are payouts: checked below.
  const reached = new Set(events.filter((e) => e.toStatus === 'PENDING').map((e) => e.transactionId));
  const cashins = transactions.filter((t) => t.type === 'CASHIN');
  // Indexed once: a soak's hundred thousand cash-ins, each compared with every refund or event, took hours.
  const refundsOf = groupBy(refunds, (r) => r.transactionId);
  for (const t of cashins) {
    const operator = operators.view(t);
    const at = operator?.where ?? t.operator;
    const created = operator?.created ?? 0;
    if (created > 1) found.push(`push: ${t.id} (${at}) created ${created} payments at the operator`);
    if (reached.has(t.id) && created !== 1)
      found.push(`push: ${t.id} (${at}) reached PENDING with ${created} payments at the operator`);
    if (t.failureCode === 'OPERATOR_UNAVAILABLE' && operator)
      found.push(
        `push: ${t.id} (${at}) FAILED OPERATOR_UNAVAILABLE but the operator has its payment (${operator.state})`,
      );
    // Money both ways: never credited unless the operator took it, never failed when it did. A PENDING or
    // EXPIRED one the operator has confirmed is still converging: settle() waits for it.
    const credited = t.status === 'SUCCESS' || t.status === 'REVERSED';
    const taken = operator?.taken === true;
    // A late success for a FAILED cash-in is the customer's money, given back (decisions 13), not the merchant's.
    const returned =
      t.status === 'FAILED' &&
      (refundsOf.get(t.id) ?? []).some((r) => r.origin === 'LATE_SUCCESS' && r.status === 'SUCCESS');
    if (credited !== taken && !returned && !(taken && (t.status === 'PENDING' || t.status === 'EXPIRED'))) {
      found.push(
        `operator: ${t.id} (${at}) is ${t.status} but the operator says ${operator?.state ?? 'it never saw it'}`,
      );
    }
  }

  // Refunds: within the amount, paid out exactly once when SUCCESS, never when FAILED.
  for (const t of transactions) {
    const sum = (refundsOf.get(t.id) ?? []).filter((r) => r.status !== 'FAILED').reduce((s, r) => s + r.amount, 0n);
    if (sum > t.amount) found.push(`refund: ${t.id} refunds ${sum} of ${t.amount}`);
  }
  // Each refund paid out exactly once when SUCCESS, never when FAILED, by the operator's record of it (its
  // own reference at the simulator and MTN); and per payment, as much money given back as refunds SUCCESS
  // (Wave's full refund; Orange has no refund API, so its refunds FAIL and nothing is ever given back).
  const byId = new Map(transactions.map((t) => [t.id, t]));
  for (const r of refunds) {
    const t = byId.get(r.transactionId)!;
    const paid = operators.refund(t, r.providerReference);
    if (paid?.created && paid.created > 1)
      found.push(
        `refund: ${r.id} (${operators.view(t)?.where ?? t.operator}) created ${paid.created} times at the operator`,
      );
    if (paid && r.status === 'SUCCESS' && paid.paid !== 1)
      found.push(`refund: ${r.id} SUCCESS with ${paid.paid} payouts (${paid.state})`);
    if (paid && r.status === 'FAILED' && paid.paid !== 0)
      found.push(`refund: ${r.id} FAILED but paid out ${paid.paid} times`);
    if (r.status === 'PENDING') found.push(`refund: ${r.id} still PENDING`);
  }
  for (const t of cashins) {
    const given = operators.view(t)?.refundsPaid;
    if (given === null || given === undefined) continue;
    const succeeded = (refundsOf.get(t.id) ?? []).filter((r) => r.status === 'SUCCESS').length;
    if (given !== succeeded)
      found.push(
        `refund: ${t.id} (${operators.view(t)!.where}) has ${succeeded} refunds SUCCESS but the operator paid back ${given}`,
      );
  }

  found.push(...(await cashoutViolations(sys, { transactions, events, refunds, operators })));

  // The ledger: journals balance, balances equal their journal and are never negative.
  for (const p of ledger.problems) found.push(`ledger: ${p.check} ${JSON.stringify(p.detail)}`);

  // One webhook event per terminal change (and none other), each delivered at least once.
  const transactionHooks = webhookEvents.filter((w) => w.eventType === 'transaction.status_changed');
  const terminalChanges = events.filter((x) => NOTIFIED.includes(x.toStatus));
  const hooksOf = groupBy(transactionHooks, (w) => `${w.transactionId} ${(w.payload as { status?: string }).status}`);
  for (const e of terminalChanges) {
    const matching = hooksOf.get(`${e.transactionId} ${e.toStatus}`)?.length ?? 0;
    if (matching !== 1) found.push(`webhook: ${e.transactionId} -> ${e.toStatus} has ${matching} events`);
  }
  if (transactionHooks.length !== terminalChanges.length) {
    found.push(`webhook: ${transactionHooks.length} transaction events for ${terminalChanges.length} terminal changes`);
  }
  const refundHooksOf = groupBy(
    webhookEvents.filter((w) => w.eventType === 'refund.status_changed'),
    (w) => w.refundId,
  );
  for (const r of refunds.filter((x) => x.status !== 'PENDING')) {
    const n = refundHooksOf.get(r.id)?.length ?? 0;
    // The return of a late success is not the merchant's business: never notified.
    const expected = r.origin === 'LATE_SUCCESS' ? 0 : 1;
    if (n !== expected) found.push(`webhook: refund ${r.id} ${r.status} has ${n} events`);
  }
  found.push(...deliveryViolations(sys, webhookEvents));
  return found;
}

/** Every event reached the merchant, always with its own event_id, identical bytes and a valid signature. */
function deliveryViolations(sys: ChaosSystem, webhookEvents: { id: string; status: string }[]): string[] {
  const found: string[] = [];
  const byEvent = new Map<string, string[]>();
  for (const d of sys.receivers.flatMap((r) => r.deliveries)) {
    const headerId = d.headers['x-service-event-id'];
    if (headerId !== d.body.event_id)
      found.push(`delivery: header event id ${String(headerId)} carries body event_id ${String(d.body.event_id)}`);
    const timestamp = String(d.headers['x-service-timestamp']);
    if (
      !signatureMatches(
        sys.merchant.apiSecret,
        timestamp,
        Buffer.from(d.rawBody),
        String(d.headers['x-service-signature']),
      )
    ) {
      found.push(`delivery: bad signature on event ${String(d.body.event_id)}`);
    }
    const bodies = byEvent.get(String(d.body.event_id)) ?? [];
    bodies.push(d.rawBody);
    byEvent.set(String(d.body.event_id), bodies);
  }
  for (const [id, bodies] of byEvent) {
    if (new Set(bodies).size !== 1)
      found.push(`delivery: event ${id} was sent with ${new Set(bodies).size} different bodies`);
  }
  for (const e of webhookEvents) {
    if (e.status !== 'DELIVERED') found.push(`webhook: event ${e.id} is ${e.status}`);
    if (!byEvent.has(e.id)) found.push(`webhook: event ${e.id} never reached the merchant`);
  }
  return found;
}

/** Every service that died or was started again since the suite began: none should, whatever the fault. */
export function restartedServices(sys: ChaosSystem): string[] {
  return Object.values(sys.services)
    .filter((s) => !s.running || s.starts !== 1)
    .map((s) => `${s.spec.name}: running ${s.running}, started ${s.starts} times`);
}
