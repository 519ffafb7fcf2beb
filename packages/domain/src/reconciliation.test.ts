import fc from 'fast-check';
import {
  automaticResolution,
  categorize,
  confirmationDiffers,
  holdingDifference,
  matchRecords,
  ourOutcome,
  totalsByCategory,
  type OperatorRecord,
  type OurRecord,
  type RecordKind,
  type RecordOutcome,
} from './reconciliation.js';

const ours = (o: Partial<OurRecord> = {}): OurRecord => ({
  kind: 'CASHIN',
  reference: 'MP1',
  operatorTxId: 'OP1',
  amount: 5000,
  currency: 'XOF',
  outcome: 'SUCCESS',
  status: 'SUCCESS',
  ...o,
});
const theirs = (o: Partial<OperatorRecord> = {}): OperatorRecord => ({
  kind: 'CASHIN',
  reference: 'MP1',
  operatorTxId: 'OP1',
  amount: 5000,
  currency: 'XOF',
  outcome: 'SUCCESS',
  ...o,
});

describe('ourOutcome', () => {
  it.each([
    ['SUCCESS', false, 'SUCCESS'],
    ['REVERSED', false, 'SUCCESS'],
    ['FAILED', false, 'FAILED'],
    ['FAILED', true, 'SUCCESS'],
    ['EXPIRED', false, 'FAILED'],
    ['PENDING', false, 'PENDING'],
    ['CREATED', false, 'PENDING'],
    ['INITIATED', false, 'PENDING'],
    ['AWAITING_APPROVAL', false, 'PENDING'],
  ] as const)('%s (late success held: %s) is %s', (status, held, outcome) => {
    expect(ourOutcome(status, held)).toBe(outcome);
  });
});

describe('categorize', () => {
  it.each([
    ['both successful, same amount', ours(), theirs(), 'MATCHED'],
    [
      'both failed, amounts ignored',
      ours({ outcome: 'FAILED', status: 'FAILED' }),
      theirs({ outcome: 'FAILED', amount: 1 }),
      'MATCHED',
    ],
    ['ours FAILED, theirs successful', ours({ outcome: 'FAILED', status: 'FAILED' }), theirs(), 'STATUS_DIFFERS'],
    ['ours successful, theirs FAILED', ours(), theirs({ outcome: 'FAILED' }), 'STATUS_DIFFERS'],
    ['another amount', ours(), theirs({ amount: 4985 }), 'AMOUNT_DIFFERS'],
    ['another currency', ours(), theirs({ currency: 'XAF' }), 'AMOUNT_DIFFERS'],
    ['ours pending', ours({ outcome: 'PENDING', status: 'PENDING' }), theirs(), 'PENDING'],
    ['theirs pending', ours(), theirs({ outcome: 'PENDING' }), 'PENDING'],
    ['collected here, no record there', ours(), null, 'MISSING_AT_OPERATOR'],
    ['failed here, no record there', ours({ outcome: 'FAILED', status: 'FAILED' }), null, 'MATCHED'],
    ['pending here, no record there', ours({ outcome: 'PENDING', status: 'PENDING' }), null, 'PENDING'],
    ['a success there we do not know', null, theirs(), 'UNKNOWN_TO_US'],
    ['a failure there we do not know', null, theirs({ outcome: 'FAILED' }), 'MATCHED'],
  ] as const)('%s: %s', (_name, o, t, category) => {
    expect(categorize(o, t)).toBe(category);
  });
});

describe('holdingDifference', () => {
  it('is what the operator holds more than our books say, signed by the movement kind', () => {
    expect(holdingDifference({ kind: 'CASHIN', ours: ours(), theirs: theirs({ amount: 4985 }) })).toBe(-15);
    expect(holdingDifference({ kind: 'CASHIN', ours: null, theirs: theirs() })).toBe(5000);
    expect(holdingDifference({ kind: 'CASHIN', ours: ours(), theirs: null })).toBe(-5000);
    // A refund we paid that the operator never paid: it still holds the money.
    expect(
      holdingDifference({
        kind: 'REFUND',
        ours: ours({ kind: 'REFUND' }),
        theirs: theirs({ kind: 'REFUND', outcome: 'FAILED' }),
      }),
    ).toBe(5000);
    expect(holdingDifference({ kind: 'PAYOUT', ours: null, theirs: theirs({ kind: 'PAYOUT' }) })).toBe(-5000);
  });
});

describe('automaticResolution', () => {
  const pair = (o: OurRecord, t: OperatorRecord) => ({ kind: o.kind, ours: o, theirs: t, category: categorize(o, t) });
  it('credits the merchant for a late success after EXPIRED and returns the money after FAILED', () => {
    expect(automaticResolution(pair(ours({ outcome: 'FAILED', status: 'EXPIRED' }), theirs()))).toBe('LATE_CAPTURE');
    expect(automaticResolution(pair(ours({ outcome: 'FAILED', status: 'FAILED' }), theirs()))).toBe(
      'LATE_SUCCESS_RETURN',
    );
  });
  it('leaves every other difference to a person', () => {
    expect(
      automaticResolution(pair(ours({ outcome: 'FAILED', status: 'EXPIRED' }), theirs({ amount: 10 }))),
    ).toBeNull();
    expect(automaticResolution(pair(ours(), theirs({ outcome: 'FAILED' })))).toBeNull();
    expect(
      automaticResolution(
        pair(ours({ kind: 'REFUND', outcome: 'FAILED', status: 'FAILED' }), theirs({ kind: 'REFUND' })),
      ),
    ).toBeNull();
    expect(automaticResolution(pair(ours(), theirs()))).toBeNull();
  });
});

describe('matchRecords', () => {
  it('pairs by our reference, else by the operator id, and keeps records unknown to us under the operator key', () => {
    const pairs = matchRecords(
      [ours({ reference: 'A', operatorTxId: 'OA' }), ours({ reference: 'B', operatorTxId: 'OB' })],
      [
        theirs({ reference: 'A', operatorTxId: 'OA' }),
        theirs({ reference: null, operatorTxId: 'OB', amount: 1 }),
        theirs({ reference: null, operatorTxId: 'OX' }),
      ],
    );
    expect(pairs.map((p) => [p.key, p.category])).toEqual([
      ['A', 'MATCHED'],
      ['B', 'AMOUNT_DIFFERS'],
      ['op:OX', 'UNKNOWN_TO_US'],
    ]);
  });

  it('two movements the operator books under one of our references are two: ours pairs with its own id, the other is unknown to us', () => {
    const charged = [theirs({ reference: 'A', operatorTxId: 'OY' }), theirs({ reference: 'A', operatorTxId: 'OX' })];
    expect(
      matchRecords([ours({ reference: 'A', operatorTxId: 'OY' })], charged).map((p) => [
        p.key,
        p.theirs?.operatorTxId,
        p.category,
      ]),
    ).toEqual([
      ['A', 'OY', 'MATCHED'],
      ['op:OX', 'OX', 'UNKNOWN_TO_US'],
    ]);
    // Without an id of ours, the smaller id pairs: the same answer whatever order the records came in.
    for (const order of [charged, [...charged].reverse()]) {
      expect(
        matchRecords([ours({ reference: 'A', operatorTxId: null })], order).map((p) => [
          p.key,
          p.theirs?.operatorTxId,
          p.category,
        ]),
      ).toEqual([
        ['A', 'OX', 'MATCHED'],
        ['op:OY', 'OY', 'UNKNOWN_TO_US'],
      ]);
    }
    // Unknown to us both: each under its id.
    expect(matchRecords([], charged).map((p) => p.key)).toEqual(['op:OX', 'op:OY']);
  });

  it('a record without the operator id is a word on the movement its reference names, before or after the one with the id', () => {
    const withId = theirs({ reference: 'A', operatorTxId: 'OA', amount: 1000 });
    const statementLine = theirs({ reference: 'A', operatorTxId: null, amount: 900 });
    expect(
      matchRecords([ours({ reference: 'A', operatorTxId: 'OA', amount: 1000 })], [withId, statementLine]).map((p) => [
        p.key,
        p.theirs?.amount,
        p.category,
      ]),
    ).toEqual([['A', 900, 'AMOUNT_DIFFERS']]);
    expect(
      matchRecords([ours({ reference: 'A', operatorTxId: 'OA', amount: 1000 })], [statementLine, withId]).map((p) => [
        p.key,
        p.theirs?.amount,
        p.category,
      ]),
    ).toEqual([['A', 1000, 'MATCHED']]);
    expect(matchRecords([], [statementLine, withId]).map((p) => [p.key, p.theirs?.amount])).toEqual([['A', 1000]]);
  });

  const kind = fc.constantFrom<RecordKind>('CASHIN', 'REFUND', 'PAYOUT');
  const outcome = fc.constantFrom<RecordOutcome>('SUCCESS', 'FAILED', 'PENDING');
  const ref = fc.integer({ min: 0, max: 30 }).map((n) => `R${n}`);
  // The operator's id of a movement is its own: derived from the reference, never shared by two of ours.
  const ourArb = fc
    .record({ kind, reference: ref, hasId: fc.boolean(), amount: fc.integer({ min: 1, max: 1000 }), outcome })
    .map(({ hasId, ...o }): OurRecord => ({
      ...o,
      operatorTxId: hasId ? `O${o.reference}` : null,
      currency: 'XOF',
      status: 'X',
    }));
  const theirArb = fc.record({
    kind,
    reference: fc.option(ref),
    operatorTxId: ref.map((r) => `O${r}`),
    amount: fc.integer({ min: 1, max: 1000 }),
    currency: fc.constant('XOF'),
    outcome,
  });

  it('puts every record of either side in exactly one pair, in a stable order, whatever the input order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(ourArb, { selector: (o) => `${o.kind}${o.reference}` }),
        fc.array(theirArb),
        (o, t) => {
          const pairs = matchRecords(o, t);
          for (const record of o) expect(pairs.filter((p) => p.ours === record)).toHaveLength(1);
          // A later operator record of the same movement replaces an earlier one: each pair holds at most one.
          for (const p of pairs) expect(p.ours || p.theirs).toBeTruthy();
          // Every movement of the operator's (a kind and an id) is in exactly one pair, as its newest word.
          for (const movement of new Set(t.map((r) => `${r.kind} ${r.operatorTxId}`))) {
            const newest = t.filter((r) => `${r.kind} ${r.operatorTxId}` === movement).at(-1);
            expect(
              pairs
                .filter((p) => p.theirs && `${p.theirs.kind} ${p.theirs.operatorTxId}` === movement)
                .map((p) => p.theirs),
            ).toEqual([newest]);
          }
          expect(new Set(pairs.map((p) => `${p.kind} ${p.key}`)).size).toBe(pairs.length);
          expect(matchRecords([...o].reverse(), t).map((p) => [p.kind, p.key, p.category])).toEqual(
            pairs.map((p) => [p.kind, p.key, p.category]),
          );
          const totals = totalsByCategory(pairs);
          expect(Object.values(totals).reduce((n, c) => n + c.count, 0)).toBe(pairs.length);
        },
      ),
    );
  });
});

describe("confirmationDiffers: a confirmed payment held to the day's comparison before it is applied", () => {
  const ours = { reference: 'MP1', amount: 5000, currency: 'XOF' };
  it.each([
    ['our amount and currency', { amount: 5000, currency: 'XOF' }, false],
    ['another amount', { amount: 1000, currency: 'XOF' }, true],
    ['another currency', { amount: 5000, currency: 'XAF' }, true],
    ['a fraction more', { amount: 5000.5, currency: 'XOF' }, true],
  ])('%s: differs %s', (_what, reported, differs) => {
    expect(confirmationDiffers(ours, reported)).toBe(differs);
  });
});
