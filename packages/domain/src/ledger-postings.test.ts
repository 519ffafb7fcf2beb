import fc from 'fast-check';
import { cashinPosting, cashoutPosting, transactionPosting, type AccountKind } from './ledger-postings.js';
import { isAllowedTransition, isInFlight, TRANSACTION_STATUSES, type TransactionStatus } from './transaction-status.js';

const ALLOWED_MOVES = TRANSACTION_STATUSES.flatMap((from) =>
  TRANSACTION_STATUSES.filter((to) => isAllowedTransition(from, to)).map((to) => [from, to] as const),
);
const MERCHANT_ACCOUNTS: AccountKind[] = ['MERCHANT_AVAILABLE', 'MERCHANT_PENDING', 'MERCHANT_REFUND_RESERVED'];
const amountArb = fc.integer({ min: 1, max: 5_000_000_000 });

type Balances = Record<AccountKind, number>;
const zero = (): Balances => ({
  MERCHANT_AVAILABLE: 0,
  MERCHANT_PENDING: 0,
  MERCHANT_REFUND_RESERVED: 0,
  MERCHANT_CASHOUT_RESERVED: 0,
  OPERATOR_RECEIVABLE: 0,
  CUSTOMER_SUSPENSE: 0,
  RECONCILIATION_SUSPENSE: 0,
  RECONCILIATION_WRITE_OFF: 0,
});

function apply(b: Balances, from: TransactionStatus | null, to: TransactionStatus, amount: number): void {
  for (const line of cashinPosting(from, to, amount)?.lines ?? []) b[line.account] += line.amount;
}

/** A cash-in's life: from CREATED, each choice picks one of the allowed next statuses, until none is left. */
function walk(choices: number[]): TransactionStatus[] {
  const path: TransactionStatus[] = ['CREATED'];
  for (const c of choices) {
    const current = path[path.length - 1]!;
    const next = TRANSACTION_STATUSES.filter((to) => isAllowedTransition(current, to));
    if (next.length === 0) break;
    path.push(next[c % next.length]!);
  }
  return path;
}

describe('cash-in ledger postings (decisions 6)', () => {
  it('every posting of every allowed move sums to zero and has no zero line, for any positive amount', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALLOWED_MOVES), amountArb, ([from, to], amount) => {
        const posting = cashinPosting(from, to, amount);
        if (!posting) return;
        expect(posting.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
        expect(posting.lines.every((l) => l.amount !== 0)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(amountArb, (amount) => {
        const created = cashinPosting(null, 'CREATED', amount)!;
        expect(created.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
      }),
    );
  });

  it('writes a journal for the cash-in moves that change what is owed to the merchant', () => {
    expect(cashinPosting(null, 'CREATED', 100)?.name).toBe('CASHIN_PENDING');
    for (const from of ['CREATED', 'INITIATED', 'PENDING'] as const) {
      if (isAllowedTransition(from, 'SUCCESS'))
        expect(cashinPosting(from, 'SUCCESS', 100)?.name).toBe('CASHIN_CAPTURED');
      expect(cashinPosting(from, 'FAILED', 100)?.name).toBe('CASHIN_RELEASED');
    }
    expect(cashinPosting('PENDING', 'EXPIRED', 100)?.name).toBe('CASHIN_RELEASED');
    expect(cashinPosting('EXPIRED', 'SUCCESS', 100)?.name).toBe('CASHIN_LATE_CAPTURED');
    // Moves between in-flight statuses leave the money where it is.
    expect(cashinPosting('CREATED', 'INITIATED', 100)).toBeNull();
    expect(cashinPosting('INITIATED', 'PENDING', 100)).toBeNull();
  });

  it('along any path of the state machine, merchant accounts never go negative and pending/available say where the money is', () => {
    fc.assert(
      fc.property(amountArb, fc.array(fc.nat(), { maxLength: 12 }), (amount, choices) => {
        const b = zero();
        const path = walk(choices);
        apply(b, null, 'CREATED', amount);
        for (let i = 1; i < path.length; i++) {
          apply(b, path[i - 1]!, path[i]!, amount);
          for (const k of MERCHANT_ACCOUNTS) expect(b[k]).toBeGreaterThanOrEqual(0);
          expect(b.MERCHANT_PENDING + b.MERCHANT_AVAILABLE).toBeGreaterThanOrEqual(0);
        }
        const last = path[path.length - 1]!;
        // The whole journal balances: what the merchant is owed is what the operator owes.
        expect(b.MERCHANT_AVAILABLE + b.MERCHANT_PENDING + b.MERCHANT_REFUND_RESERVED + b.OPERATOR_RECEIVABLE).toBe(0);
        expect(b.MERCHANT_PENDING).toBe(isInFlight(last) ? amount : 0);
        if (last === 'SUCCESS') expect(b.MERCHANT_AVAILABLE).toBe(amount);
        if (last === 'FAILED' || last === 'EXPIRED' || isInFlight(last)) expect(b.MERCHANT_AVAILABLE).toBe(0);
      }),
    );
  });

  it("with many cash-ins interleaved, one merchant's pending and available never go negative", () => {
    const cashin = fc.record({ amount: amountArb, choices: fc.array(fc.nat(), { maxLength: 8 }) });
    fc.assert(
      fc.property(
        fc.array(cashin, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 60 }),
        (cashins, schedule) => {
          const b = zero();
          const paths = cashins.map((c) => walk(c.choices));
          const position = paths.map(() => 0);
          cashins.forEach((c) => apply(b, null, 'CREATED', c.amount));
          // Each scheduled step advances one cash-in by one move, in any order.
          for (const s of schedule) {
            const i = s % paths.length;
            const p = paths[i]!;
            if (position[i]! + 1 >= p.length) continue;
            apply(b, p[position[i]!]!, p[position[i]! + 1]!, cashins[i]!.amount);
            position[i]! += 1;
            expect(b.MERCHANT_PENDING).toBeGreaterThanOrEqual(0);
            expect(b.MERCHANT_AVAILABLE).toBeGreaterThanOrEqual(0);
          }
          const inFlight = cashins.reduce((s, c, i) => s + (isInFlight(paths[i]![position[i]!]!) ? c.amount : 0), 0);
          expect(b.MERCHANT_PENDING).toBe(inFlight);
        },
      ),
    );
  });
});

describe('cash-out ledger postings (decisions 6 and 7)', () => {
  /** A cash-out's life from its first status, each choice picking one of the allowed next statuses. */
  function cashoutWalk(first: TransactionStatus, choices: number[]): TransactionStatus[] {
    const path: TransactionStatus[] = [first];
    for (const c of choices) {
      const next = TRANSACTION_STATUSES.filter((to) => isAllowedTransition(path[path.length - 1]!, to, 'CASHOUT'));
      if (next.length === 0) break;
      path.push(next[c % next.length]!);
    }
    return path;
  }

  it('reserves on acceptance, pays out on SUCCESS, gives back on FAILED, never overdrawing, along any path', () => {
    const first = fc.constantFrom<TransactionStatus>('CREATED', 'AWAITING_APPROVAL');
    fc.assert(
      fc.property(
        amountArb,
        fc.nat({ max: 1_000_000 }),
        first,
        fc.array(fc.nat(), { maxLength: 6 }),
        (amount, extra, start, choices) => {
          const b = zero();
          b.MERCHANT_AVAILABLE = amount + extra;
          b.OPERATOR_RECEIVABLE = -(amount + extra);
          const path = cashoutWalk(start, choices);
          const move = (from: TransactionStatus | null, to: TransactionStatus) => {
            for (const line of transactionPosting('CASHOUT', from, to, amount)?.lines ?? [])
              b[line.account] += line.amount;
            for (const k of MERCHANT_ACCOUNTS) expect(b[k]).toBeGreaterThanOrEqual(0);
            expect(b.MERCHANT_CASHOUT_RESERVED).toBeGreaterThanOrEqual(0);
          };
          move(null, start);
          for (let i = 1; i < path.length; i++) move(path[i - 1]!, path[i]!);
          const last = path[path.length - 1]!;
          expect(Object.values(b).reduce((x, y) => x + y, 0)).toBe(0);
          expect(b.MERCHANT_CASHOUT_RESERVED).toBe(last === 'SUCCESS' || last === 'FAILED' ? 0 : amount);
          expect(b.MERCHANT_AVAILABLE).toBe(last === 'FAILED' ? amount + extra : extra);
        },
      ),
    );
  });

  it('names its journals and writes nothing for a move that leaves the money where it is', () => {
    expect(cashoutPosting(null, 'CREATED', 100)?.name).toBe('CASHOUT_RESERVED');
    expect(cashoutPosting(null, 'AWAITING_APPROVAL', 100)?.name).toBe('CASHOUT_RESERVED');
    expect(cashoutPosting('INITIATED', 'SUCCESS', 100)?.name).toBe('CASHOUT_PAID');
    expect(cashoutPosting('AWAITING_APPROVAL', 'FAILED', 100)?.name).toBe('CASHOUT_RELEASED');
    expect(cashoutPosting('INITIATED', 'FAILED', 100)?.name).toBe('CASHOUT_RELEASED');
    expect(cashoutPosting('AWAITING_APPROVAL', 'INITIATED', 100)).toBeNull();
    expect(cashoutPosting('CREATED', 'INITIATED', 100)).toBeNull();
    expect(transactionPosting('CASHIN', null, 'CREATED', 100)?.name).toBe('CASHIN_PENDING');
  });
});
