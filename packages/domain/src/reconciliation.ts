import type { TransactionStatus } from './transaction-status.js';

/**
 * Reconciliation with the operators (docs/reconciliation.md): our books against the operator's own
 * records of one business day, movement by movement. Pure rules; reading, storing and resolving are the
 * db package's and the reconciliation runner's.
 */

/** What moved: a cash-in collected from a customer, a refund paid back to one, a cash-out paid to one. */
export const RECORD_KINDS = ['CASHIN', 'REFUND', 'PAYOUT'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** The outcome of a movement, in the one vocabulary both sides are mapped to. */
export const RECORD_OUTCOMES = ['SUCCESS', 'FAILED', 'PENDING'] as const;
export type RecordOutcome = (typeof RECORD_OUTCOMES)[number];

/** A movement as the operator tells it (its list API, a status answer, a line of its statement). */
export interface OperatorRecord {
  kind: RecordKind;
  /** Our provider_reference, when the operator echoes it (externalId, client_reference, order_id). */
  reference: string | null;
  /** The operator's own id of the movement, when it gave one. */
  operatorTxId: string | null;
  /** In the currency's units (XOF and XAF have no minor unit). */
  amount: number;
  currency: string;
  outcome: RecordOutcome;
  /**
   * The movement's country when the record tells it (from the customer's number). One operator endpoint may
   * serve the accounts of several countries (the simulator; a demo wallet shared by two): an account then
   * keeps only its own country's records. Absent: the record is the account's.
   */
  countryCode?: string | null;
}

/** A movement as our books have it. */
export interface OurRecord {
  kind: RecordKind;
  /** provider_reference of the transaction or refund. */
  reference: string;
  operatorTxId: string | null;
  amount: number;
  currency: string;
  /** Our status, mapped (ourOutcome); `status` keeps what it was mapped from, for the case's detail. */
  outcome: RecordOutcome;
  status: string;
}

/**
 * Where a pair ends up. MATCHED also covers "nothing moved on either side" (a FAILED cash-in the operator
 * has no record of, or records as failed too). PENDING: one side has not decided yet, compared again on the
 * next run; it opens no case.
 */
export const MATCH_CATEGORIES = [
  'MATCHED',
  'STATUS_DIFFERS',
  'AMOUNT_DIFFERS',
  'MISSING_AT_OPERATOR',
  'UNKNOWN_TO_US',
  'PENDING',
] as const;
export type MatchCategory = (typeof MATCH_CATEGORIES)[number];
export type DifferenceCategory = Exclude<MatchCategory, 'MATCHED' | 'PENDING'>;

export function isDifference(category: MatchCategory): category is DifferenceCategory {
  return category !== 'MATCHED' && category !== 'PENDING';
}

/**
 * Our status as a movement's outcome. A cash-in REVERSED was collected (its refunds are movements of their
 * own); EXPIRED is no collection here (a late success after it is a difference, resolved automatically);
 * a FAILED cash-in whose late success is being returned to the customer was collected (decisions 13: the
 * operator's success is explained, the return is a refund movement of its own).
 */
export function ourOutcome(
  status: TransactionStatus | 'SUCCESS' | 'FAILED' | 'PENDING',
  lateSuccessHeld = false,
): RecordOutcome {
  switch (status) {
    case 'SUCCESS':
    case 'REVERSED':
      return 'SUCCESS';
    case 'FAILED':
      return lateSuccessHeld ? 'SUCCESS' : 'FAILED';
    case 'EXPIRED':
      return 'FAILED';
    default:
      return 'PENDING';
  }
}

/** How the pair compares. Amounts are compared only when money moved on both sides. */
export function categorize(ours: OurRecord | null, theirs: OperatorRecord | null): MatchCategory {
  if (ours && theirs) {
    if (ours.outcome === 'PENDING' || theirs.outcome === 'PENDING') return 'PENDING';
    if (ours.outcome !== theirs.outcome) return 'STATUS_DIFFERS';
    if (ours.outcome === 'SUCCESS' && (ours.amount !== theirs.amount || ours.currency !== theirs.currency))
      return 'AMOUNT_DIFFERS';
    return 'MATCHED';
  }
  if (ours)
    return ours.outcome === 'SUCCESS' ? 'MISSING_AT_OPERATOR' : ours.outcome === 'PENDING' ? 'PENDING' : 'MATCHED';
  if (theirs)
    return theirs.outcome === 'SUCCESS' ? 'UNKNOWN_TO_US' : theirs.outcome === 'PENDING' ? 'PENDING' : 'MATCHED';
  throw new Error('categorize needs at least one side');
}

/**
 * Whether a payment the operator confirms, with the amount it says it moved, differs from our cash-in as
 * applying it would make it (collected): the reconciliation's own comparison (categorize), so a callback or a
 * status answer is held to the same rule as the day's records. Such a confirmation is never applied (the
 * merchant would be credited an amount the customer did not pay, or its return refund the wrong one): it is a
 * case for a person, like an AMOUNT_DIFFERS of the day.
 */
export function confirmationDiffers(
  ours: { reference: string; amount: number; currency: string },
  reported: { amount: number; currency: string },
): boolean {
  const collected: OurRecord = {
    kind: 'CASHIN',
    reference: ours.reference,
    operatorTxId: null,
    amount: ours.amount,
    currency: ours.currency,
    outcome: 'SUCCESS',
    status: 'SUCCESS',
  };
  const theirs: OperatorRecord = {
    kind: 'CASHIN',
    reference: ours.reference,
    operatorTxId: null,
    amount: reported.amount,
    currency: reported.currency,
    outcome: 'SUCCESS',
  };
  return categorize(collected, theirs) === 'AMOUNT_DIFFERS';
}

export interface MatchedPair {
  kind: RecordKind;
  /** Our reference, or the operator's key of a record unknown to us (`op:<operatorTxId>` or its reference). */
  key: string;
  ours: OurRecord | null;
  theirs: OperatorRecord | null;
  category: MatchCategory;
}

/** The key a record unknown to us is kept under: its echoed reference, else the operator's id. */
export function operatorRecordKey(r: OperatorRecord): string {
  if (r.reference) return r.reference;
  if (r.operatorTxId) return `op:${r.operatorTxId}`;
  throw new Error('an operator record needs a reference or an operator id');
}

/** One movement of one kind under one key, as a map key. */
const slot = (kind: RecordKind, key: string) => `${kind}\u0000${key}`;

/** One movement in the operator's records: its newest word, and the operator's id it is known by (null: none given). */
interface OperatorMovement {
  record: OperatorRecord;
  id: string | null;
}

/**
 * The operator's movements among its records, each its newest word (records come oldest first). A movement
 * is known by the operator's id; records with different ids are different movements even under one of our
 * references (a customer charged twice for one payment). A record without an id is a word on the movement
 * its reference names (the newest one with that reference), or a movement of its own until a record with
 * an id names the same reference.
 */
function operatorMovements(theirs: readonly OperatorRecord[]): OperatorMovement[] {
  const movements = new Map<string, OperatorMovement>();
  // Per kind and reference: the keys of the movements carrying it, in the order they appeared.
  const byReference = new Map<string, string[]>();
  for (const t of theirs) {
    const refSlot = t.reference ? slot(t.kind, t.reference) : null;
    const named = refSlot ? (byReference.get(refSlot) ?? []) : [];
    let key: string;
    if (t.operatorTxId) {
      key = slot(t.kind, `id:${t.operatorTxId}`);
      // A movement known so far only by this reference is this one: it now has its id.
      const anonymous = named.find((k) => movements.get(k)?.id === null);
      if (!movements.has(key) && anonymous) {
        movements.delete(anonymous);
        named.splice(named.indexOf(anonymous), 1);
      }
      movements.set(key, { record: t, id: t.operatorTxId });
    } else {
      key = named.at(-1) ?? slot(t.kind, `ref:${t.reference!}`);
      movements.set(key, { record: t, id: movements.get(key)?.id ?? null });
    }
    if (refSlot && !named.includes(key)) byReference.set(refSlot, [...named, key]);
  }
  return [...movements.values()];
}

/**
 * Pairs our records with the operator's movements: by our reference when the operator echoes it, else by
 * the operator's id of the movement. Each record of ours and each movement of the operator's ends in exactly
 * one pair; a second record of the same movement (a statement and an API both imported, say) is not a second
 * pair: the later one in `theirs` is the operator's newest word. Two movements under one of our references
 * (different operator ids) are two: ours pairs with the one carrying our id (else the smaller id), the other
 * is unknown to us under its id. Pairs come out in a stable order (kind, then key), so running a day twice
 * gives the same result.
 */
export function matchRecords(ours: readonly OurRecord[], theirs: readonly OperatorRecord[]): MatchedPair[] {
  const ourBySlot = new Map<string, OurRecord>();
  const byOperatorId = new Map<string, string>();
  for (const o of ours) {
    ourBySlot.set(slot(o.kind, o.reference), o);
    if (o.operatorTxId) byOperatorId.set(slot(o.kind, o.operatorTxId), o.reference);
  }
  // Each movement goes to the movement of ours it names, or stays the operator's alone (unknown to us).
  const claims = new Map<string, OperatorMovement[]>();
  const alone: OperatorMovement[] = [];
  for (const m of operatorMovements(theirs)) {
    const t = m.record;
    const reference =
      t.reference && ourBySlot.has(slot(t.kind, t.reference))
        ? t.reference
        : m.id
          ? (byOperatorId.get(slot(t.kind, m.id)) ?? null)
          : null;
    if (reference === null) alone.push(m);
    else claims.set(slot(t.kind, reference), [...(claims.get(slot(t.kind, reference)) ?? []), m]);
  }
  // By id, movements without one last: the order that decides which of several movements our record pairs with.
  const byId = (a: OperatorMovement, b: OperatorMovement) =>
    a.id === b.id ? 0 : a.id === null ? 1 : b.id === null ? -1 : a.id < b.id ? -1 : 1;
  const pairs: Omit<MatchedPair, 'category'>[] = [];
  for (const o of ours) {
    const candidates = [...(claims.get(slot(o.kind, o.reference)) ?? [])].sort(byId);
    const chosen = candidates.find((m) => o.operatorTxId !== null && m.id === o.operatorTxId) ?? candidates[0] ?? null;
    pairs.push({ kind: o.kind, key: o.reference, ours: o, theirs: chosen?.record ?? null });
    // Another movement with an id is another movement; one without cannot be told from the chosen one: a word on it.
    for (const m of candidates) if (m !== chosen && m.id !== null) alone.push(m);
  }
  // Unknown to us: under the reference the operator gave, or its id when another movement has that reference too.
  const sharing = new Map<string, number>();
  for (const m of alone) {
    const k = slot(m.record.kind, m.record.reference ?? `op:${m.id}`);
    sharing.set(k, (sharing.get(k) ?? 0) + 1);
  }
  const taken = new Set(pairs.map((p) => slot(p.kind, p.key)));
  for (const m of [...alone].sort(byId)) {
    const t = m.record;
    const plain = t.reference ?? `op:${m.id}`;
    const key =
      m.id && (sharing.get(slot(t.kind, plain))! > 1 || taken.has(slot(t.kind, plain))) ? `op:${m.id}` : plain;
    taken.add(slot(t.kind, key));
    pairs.push({ kind: t.kind, key, ours: null, theirs: t });
  }
  return pairs
    .map((p) => ({ ...p, category: categorize(p.ours, p.theirs) }))
    .sort((a, b) =>
      a.kind === b.kind
        ? a.key < b.key
          ? -1
          : a.key > b.key
            ? 1
            : 0
        : RECORD_KINDS.indexOf(a.kind) - RECORD_KINDS.indexOf(b.kind),
    );
}

/**
 * What the operator holds for us because of one movement: a collected cash-in adds its amount, a paid
 * refund or cash-out takes it away, anything not successful moves nothing.
 */
export function operatorHolding(kind: RecordKind, outcome: RecordOutcome, amount: number): number {
  if (outcome !== 'SUCCESS') return 0;
  return kind === 'CASHIN' ? amount : -amount;
}

/**
 * How much more the operator holds than our books say for this pair (negative: less). The amount a case
 * posts when the operator's side is accepted. Currencies that differ compare as different amounts: a case
 * of the currency the operator reports.
 */
export function holdingDifference(pair: Pick<MatchedPair, 'kind' | 'ours' | 'theirs'>): number {
  const theirs = pair.theirs ? operatorHolding(pair.kind, pair.theirs.outcome, pair.theirs.amount) : 0;
  const ours = pair.ours ? operatorHolding(pair.kind, pair.ours.outcome, pair.ours.amount) : 0;
  return theirs - ours;
}

/**
 * The differences the service resolves without a person, by rules already decided: the operator collected a
 * cash-in that is EXPIRED here (a late success: the merchant is credited, decisions 4) or FAILED here (the
 * customer is paid back, decisions 13). Both are applied only after the operator's status confirms it, by
 * the same code as a callback. Everything else is a case for a person.
 */
export type AutomaticResolution = 'LATE_CAPTURE' | 'LATE_SUCCESS_RETURN';

export function automaticResolution(
  pair: Pick<MatchedPair, 'kind' | 'ours' | 'theirs' | 'category'>,
): AutomaticResolution | null {
  if (pair.category !== 'STATUS_DIFFERS' || pair.kind !== 'CASHIN' || !pair.ours || pair.theirs?.outcome !== 'SUCCESS')
    return null;
  if (pair.ours.amount !== pair.theirs.amount || pair.ours.currency !== pair.theirs.currency) return null;
  if (pair.ours.status === 'EXPIRED') return 'LATE_CAPTURE';
  if (pair.ours.status === 'FAILED') return 'LATE_SUCCESS_RETURN';
  return null;
}

export interface CategoryTotals {
  count: number;
  /** Sum of |holdingDifference| over the category's pairs (for MATCHED: the amount that moved). */
  amount: number;
}

/** Counts and amounts per category, every category present (zeros included), for the day's report. */
export function totalsByCategory(pairs: readonly MatchedPair[]): Record<MatchCategory, CategoryTotals> {
  const totals = Object.fromEntries(MATCH_CATEGORIES.map((c) => [c, { count: 0, amount: 0 }])) as Record<
    MatchCategory,
    CategoryTotals
  >;
  for (const p of pairs) {
    const t = totals[p.category];
    t.count += 1;
    t.amount +=
      p.category === 'MATCHED'
        ? Math.abs(p.theirs ? operatorHolding(p.kind, p.theirs.outcome, p.theirs.amount) : 0)
        : Math.abs(holdingDifference(p));
  }
  return totals;
}
