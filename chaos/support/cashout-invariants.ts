import type { ChaosSystem } from './chaos-system.js';
import type { AcceptedCashout, Approver } from './cashout-load.js';
import type { OperatorRecords } from './operator-records.js';

type Row = {
  id: string;
  type: string;
  status: string;
  amount: bigint;
  merchantId: string;
  countryCode: string;
  operator: string;
  providerReference: string;
  failureCode: string | null;
};
type Event = { transactionId: string; fromStatus: string | null; toStatus: string };
type RefundRow = { transactionId: string; status: string; amount: bigint; origin: string };

const OPEN = new Set(['CREATED', 'AWAITING_APPROVAL', 'INITIATED']);

/**
 * Cash-outs against the operator's own records and the merchant's balances, from the rows alone (no
 * knowledge of what the test did): each paid out at most once, exactly once when SUCCESS, never when
 * FAILED or before it was sent; its history one unbroken path; and per merchant and country, the
 * available balance what the rows call for and the cash-out reservation the cash-outs still open.
 */
export async function cashoutViolations(
  sys: ChaosSystem,
  d: { transactions: Row[]; events: Event[]; refunds: RefundRow[]; operators: OperatorRecords },
): Promise<string[]> {
  const found: string[] = [];
  const cashouts = d.transactions.filter((t) => t.type === 'CASHOUT');
  const history = new Map<string, Event[]>();
  for (const e of d.events) history.set(e.transactionId, [...(history.get(e.transactionId) ?? []), e]);

  for (const t of cashouts) {
    const payout = d.operators.payout(t);
    const at = payout?.where ?? t.operator;
    if (payout && payout.created > 1)
      found.push(`cash-out: ${t.id} (${at}) has ${payout.created} payouts at the operator`);
    if (t.status === 'SUCCESS' && payout?.paid !== 1)
      found.push(
        `cash-out: ${t.id} (${at}) SUCCESS, paid ${payout?.paid ?? 0} times (${payout?.state ?? 'never seen'})`,
      );
    if (t.status === 'FAILED' && (payout?.paid ?? 0) !== 0)
      found.push(`cash-out: ${t.id} (${at}) FAILED ${t.failureCode} but paid ${payout!.paid} times`);
    // The operator's word is what makes one FAILED: refused by the operator only if it holds the refusal,
    // never sent at all if an approver rejected it.
    if (t.failureCode === 'OPERATOR_REJECTED' && !payout)
      found.push(`cash-out: ${t.id} (${at}) FAILED OPERATOR_REJECTED but the operator never saw it`);
    if (t.failureCode === 'REJECTED_BY_APPROVER' && payout)
      found.push(`cash-out: ${t.id} (${at}) rejected by an approver but the operator has it (${payout.state})`);
    if (payout?.amount != null && BigInt(payout.amount) !== t.amount)
      found.push(`cash-out: ${t.id} (${at}) of ${t.amount} paid out as ${payout.amount}`);
    if (t.status === 'AWAITING_APPROVAL' && payout)
      found.push(`cash-out: ${t.id} (${at}) AWAITING_APPROVAL but the operator has it (${payout.state})`);

    let status: string | null = null;
    for (const e of history.get(t.id) ?? []) {
      if (e.fromStatus !== status)
        found.push(`cash-out: ${t.id} moved ${e.fromStatus} -> ${e.toStatus} while ${status}`);
      status = e.toStatus;
    }
    if (status !== t.status) found.push(`cash-out: ${t.id} is ${t.status} but its history ends at ${status}`);
  }

  const references = new Set(cashouts.map((t) => t.providerReference));
  for (const p of d.operators.payoutReferences()) {
    if (!references.has(p.reference))
      found.push(`cash-out: ${p.where} holds a payout under ${p.reference}, which is no cash-out's reference`);
  }

  // What the rows call for, per merchant and country: captured cash-ins, less refunds reserved or paid,
  // less cash-outs reserved or paid (a FAILED one gave its amount back).
  const key = (merchantId: string, countryCode: string) => `${merchantId}/${countryCode}`;
  const byId = new Map(d.transactions.map((t) => [t.id, t]));
  const available = new Map<string, bigint>();
  const reserved = new Map<string, bigint>();
  const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
  for (const t of d.transactions) {
    const k = key(t.merchantId, t.countryCode);
    if (t.type === 'CASHIN' && (t.status === 'SUCCESS' || t.status === 'REVERSED')) add(available, k, t.amount);
    if (t.type === 'CASHOUT' && t.status !== 'FAILED') add(available, k, -t.amount);
    if (t.type === 'CASHOUT' && OPEN.has(t.status)) add(reserved, k, t.amount);
  }
  for (const r of d.refunds) {
    const t = byId.get(r.transactionId)!;
    // A late success's return to the customer goes through suspense, never the merchant's balance.
    if (r.status !== 'FAILED' && r.origin === 'MERCHANT') add(available, key(t.merchantId, t.countryCode), -r.amount);
  }
  const accounts = await sys.db.ledgerAccount.findMany({
    where: { merchantId: { not: null }, kind: { in: ['MERCHANT_AVAILABLE', 'MERCHANT_CASHOUT_RESERVED'] } },
    select: { merchantId: true, countryCode: true, kind: true, balance: true },
  });
  const booked = (kind: string) =>
    new Map(accounts.filter((a) => a.kind === kind).map((a) => [key(a.merchantId!, a.countryCode), a.balance]));
  const compare = (what: string, want: Map<string, bigint>, have: Map<string, bigint>) => {
    for (const k of new Set([...want.keys(), ...have.keys()])) {
      if ((want.get(k) ?? 0n) !== (have.get(k) ?? 0n))
        found.push(`balance: ${what} of ${k} is ${have.get(k) ?? 0n}, the rows call for ${want.get(k) ?? 0n}`);
    }
  };
  compare('available', available, booked('MERCHANT_AVAILABLE'));
  compare('cash-out reserved', reserved, booked('MERCHANT_CASHOUT_RESERVED'));
  return found;
}

/** What the merchant reads (GET /balances) is what the rows call for, in each country it has money in. */
export async function merchantBalanceViolations(sys: ChaosSystem): Promise<string[]> {
  const [res, rows] = await Promise.all([
    sys.api('GET', '/api/v1/balances'),
    sys.db.ledgerAccount.findMany({
      where: { merchantId: sys.merchant.id, kind: 'MERCHANT_AVAILABLE' },
      select: { countryCode: true, balance: true },
    }),
  ]);
  if (res.status !== 200) return [`balance: GET /balances answered ${res.status} ${res.text}`];
  const answered = res.body.data as { country_code: string; available_balance: number }[];
  return rows.flatMap((a) => {
    const shown = answered.find((b) => b.country_code === a.countryCode)?.available_balance;
    return BigInt(shown ?? -1) === a.balance
      ? []
      : [`balance: GET /balances shows ${shown} available in ${a.countryCode}, the ledger ${a.balance}`];
  });
}

/**
 * Cash-outs against what the test did with them: one the approver approved was sent and decided by the
 * operator, one it rejected is FAILED REJECTED_BY_APPROVER, one it never decided still waits, and one
 * that never needed approval went straight to the operator.
 */
export async function decisionViolations(
  sys: ChaosSystem,
  cashouts: AcceptedCashout[],
  approver: Approver,
): Promise<string[]> {
  const found: string[] = [];
  const rows = new Map(
    (await sys.db.transaction.findMany({ where: { id: { in: cashouts.map((c) => c.id) } } })).map((t) => [t.id, t]),
  );
  for (const c of cashouts) {
    const t = rows.get(c.id);
    if (!t) {
      found.push(`decision: ${c.order} (${c.id}) has no row`);
      continue;
    }
    const was = `${c.order} (${c.id}, ${t.status} ${t.failureCode ?? ''})`;
    const byOperator = t.status === 'SUCCESS' || (t.status === 'FAILED' && t.failureCode === 'OPERATOR_REJECTED');
    if (approver.approved.has(c.id) && approver.rejected.has(c.id))
      found.push(`decision: ${was} both approved and rejected`);
    else if (approver.approved.has(c.id) && !byOperator)
      found.push(`decision: ${was} approved, not decided by the operator`);
    else if (approver.rejected.has(c.id) && !(t.status === 'FAILED' && t.failureCode === 'REJECTED_BY_APPROVER'))
      found.push(`decision: ${was} rejected by the approver`);
    else if (
      c.accepted === 'AWAITING_APPROVAL' &&
      !approver.approved.has(c.id) &&
      !approver.rejected.has(c.id) &&
      t.status !== 'AWAITING_APPROVAL'
    ) {
      found.push(`decision: ${was} moved although nobody decided it`);
    } else if (c.accepted !== 'AWAITING_APPROVAL' && !byOperator)
      found.push(`decision: ${was} needed no approval, not decided by the operator`);
  }
  return found;
}
