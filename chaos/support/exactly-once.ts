import {
  lateSuccessPosting,
  refundPosting,
  transactionPosting,
  type TransactionStatus,
  type TransactionType,
} from '@mm/domain';
import type { ChaosSystem } from './chaos-system.js';
import { groupBy } from './group-by.js';

/**
 * What `violations()` allows but a run without faults must not show: work done twice. Its checks are
 * "at least once" where a fault may legitimately cause a retry; with a healthy operator and endpoint,
 * every step must have happened exactly once, whichever instance did it. Returns what was done twice
 * (or never); an empty list is a pass.
 */
export async function doneTwice(sys: ChaosSystem): Promise<string[]> {
  const [transactions, events, refunds, journals, webhookEvents, attempts, pushes, payouts] = await Promise.all([
    sys.db.transaction.findMany({
      select: { id: true, type: true, status: true, amount: true, providerReference: true },
    }),
    sys.db.transactionEvent.findMany({
      orderBy: { id: 'asc' },
      select: { transactionId: true, fromStatus: true, toStatus: true },
    }),
    sys.db.refund.findMany({ select: { id: true, status: true, amount: true, origin: true } }),
    sys.db.$queryRaw<{ posting: string; transaction_id: string | null; refund_id: string | null }[]>`
      SELECT min(posting) AS posting, min(transaction_id::text) AS transaction_id, min(refund_id::text) AS refund_id
        FROM journal_entries GROUP BY journal_id`,
    sys.db.webhookEvent.findMany({ select: { id: true } }),
    sys.db.webhookAttempt.groupBy({ by: ['eventId'], _count: { _all: true } }),
    sys.simulator.pushes(),
    sys.simulator.disbursements(),
  ]);
  const found: string[] = [];

  // One push per cash-in: every cash-in of a run without faults reaches the operator. One payout per
  // cash-out that was sent (an approver's rejection sends nothing).
  const history = groupBy(events, (e) => e.transactionId);
  for (const t of transactions) {
    if (t.type === 'CASHOUT') {
      const sent = (history.get(t.id) ?? []).some((e) => e.toStatus === 'INITIATED') ? 1 : 0;
      const paidOut = payouts.get(t.providerReference)?.disbursement_count ?? 0;
      if (paidOut !== sent) found.push(`payout: ${t.id} sent ${sent} times, decided ${paidOut} times by the operator`);
      continue;
    }
    const rings = pushes.get(t.providerReference)?.push_count ?? 0;
    if (rings !== 1) found.push(`push: ${t.id} rang the phone ${rings} times`);
  }

  // Each state change applied once: the history is one unbroken path ending at the current status.
  for (const t of transactions) {
    let at: string | null = null;
    for (const e of history.get(t.id) ?? []) {
      if (e.fromStatus !== at) found.push(`history: ${t.id} moved ${e.fromStatus} -> ${e.toStatus} while ${at}`);
      at = e.toStatus;
    }
    if (at !== t.status) found.push(`history: ${t.id} is ${t.status} but its history ends at ${at}`);
  }

  // One journal per movement of money: the postings are exactly those its changes call for.
  const booked = groupBy(journals, (j) => j.refund_id ?? `t:${j.transaction_id}`);
  const same = (key: string, expected: (string | undefined)[]) => {
    const want = expected.filter((p): p is string => p !== undefined).sort();
    const got = (booked.get(key) ?? []).map((j) => j.posting).sort();
    if (want.join() !== got.join())
      found.push(`ledger: ${key} has journals [${got.join(', ')}], its changes call for [${want.join(', ')}]`);
  };
  for (const t of transactions) {
    same(
      `t:${t.id}`,
      (history.get(t.id) ?? []).map(
        (e) =>
          transactionPosting(
            t.type as TransactionType,
            e.fromStatus as TransactionStatus | null,
            e.toStatus as TransactionStatus,
            Number(t.amount),
          )?.name,
      ),
    );
  }
  for (const r of refunds) {
    if (r.origin === 'LATE_SUCCESS') {
      // Held in suspense, and out of it only once paid back (decisions 13); a refused return posts nothing.
      same(r.id, [
        lateSuccessPosting('HELD', Number(r.amount)).name,
        r.status === 'SUCCESS' ? lateSuccessPosting('RETURNED', Number(r.amount)).name : undefined,
      ]);
      continue;
    }
    const outcome = r.status === 'SUCCESS' ? 'SUCCEEDED' : r.status === 'FAILED' ? 'FAILED' : null;
    same(r.id, [
      refundPosting('ACCEPTED', Number(r.amount)).name,
      outcome ? refundPosting(outcome, Number(r.amount)).name : undefined,
    ]);
  }

  // Each webhook event sent once and received once: the endpoint is healthy, so no attempt is retried.
  const received = groupBy(
    sys.receivers.flatMap((r) => r.deliveries),
    (d) => String(d.body.event_id),
  );
  const tried = new Map(attempts.map((a) => [a.eventId, a._count._all]));
  for (const w of webhookEvents) {
    const n = received.get(w.id)?.length ?? 0;
    if (n !== 1) found.push(`webhook: event ${w.id} received ${n} times`);
    if (tried.get(w.id) !== 1) found.push(`webhook: event ${w.id} has ${tried.get(w.id) ?? 0} recorded attempts`);
  }
  return found;
}
