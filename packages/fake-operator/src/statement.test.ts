import {
  isDay,
  linesOfDay,
  pageOf,
  plantedTxId,
  Plants,
  STATEMENT_HEADER,
  statementCsv,
  type StatementLine,
} from './statement.js';

const at = (iso: string) => Date.parse(iso);
const line = (over: Partial<StatementLine> = {}): StatementLine => ({
  lineId: 'L1',
  kind: 'CASHIN',
  reference: 'MM1',
  operatorTxId: 'T1',
  amount: 1000,
  currency: 'XOF',
  status: 'SUCCESS',
  occurredAtMs: at('2026-11-27T10:00:00Z'),
  ...over,
});

describe('statement lines, planted differences, pages', () => {
  it('writes the one CSV format: its header, a line per movement, quoting what needs it, empty for none', () => {
    const csv = statementCsv([
      line(),
      line({ lineId: 'L2', kind: 'REFUND', reference: null, operatorTxId: 'cos-1', amount: 12.5, status: 'FAILED' }),
      line({ reference: 'a,"b"', operatorTxId: null }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      STATEMENT_HEADER,
      'CASHIN,MM1,T1,1000,XOF,SUCCESS,2026-11-27T10:00:00.000Z',
      'REFUND,,cos-1,12.5,XOF,FAILED,2026-11-27T10:00:00.000Z',
      'CASHIN,"a,""b""",,1000,XOF,SUCCESS,2026-11-27T10:00:00.000Z',
      '',
    ]);
    expect(STATEMENT_HEADER).toBe('kind,reference,operator_tx_id,amount,currency,status,occurred_at');
  });

  it("applies each planted change to the record it names, by our reference or by the operator's id, and adds unknown records", () => {
    const plants = new Plants(() => at('2026-11-27T12:00:00Z'));
    const lines = [
      line({ lineId: 'a', reference: 'MM-amount' }),
      line({ lineId: 'b', reference: 'MM-fail', operatorTxId: 'T-fail' }),
      line({ lineId: 'c', reference: 'MM-pending', operatorTxId: null, status: 'PENDING' }),
      line({ lineId: 'd', reference: 'MM-drop' }),
      line({ lineId: 'e', kind: 'REFUND', reference: null, operatorTxId: 'cos-9' }),
      line({ lineId: 'f', reference: 'MM-same' }),
    ];
    plants.plant('MM-amount', { type: 'amount', amount: 999 });
    plants.plant('MM-fail', { type: 'status', status: 'FAILED' });
    plants.plant('MM-pending', { type: 'status', status: 'SUCCESS' });
    plants.plant('MM-drop', { type: 'drop' });
    plants.plant('cos-9', { type: 'status', status: 'FAILED' });
    plants.plant('THEIRS-1', {
      type: 'unknown',
      kind: 'PAYOUT',
      amount: 700,
      currency: 'XOF',
      operator_tx_id: 'T-theirs',
    });
    expect(plants.apply(lines)).toEqual([
      line({ lineId: 'a', reference: 'MM-amount', amount: 999 }),
      line({ lineId: 'b', reference: 'MM-fail', operatorTxId: null, status: 'FAILED' }),
      line({ lineId: 'c', reference: 'MM-pending', operatorTxId: plantedTxId('MM-pending'), status: 'SUCCESS' }),
      line({ lineId: 'e', kind: 'REFUND', reference: null, operatorTxId: null, status: 'FAILED' }),
      line({ lineId: 'f', reference: 'MM-same' }),
      {
        lineId: 'planted-1',
        kind: 'PAYOUT',
        reference: 'THEIRS-1',
        operatorTxId: 'T-theirs',
        amount: 700,
        currency: 'XOF',
        status: 'SUCCESS',
        occurredAtMs: at('2026-11-27T12:00:00Z'),
      },
    ]);
    expect(plants.on({ reference: 'MM-drop' })).toEqual({ type: 'drop' });
    expect(plants.on({ reference: null, operatorTxId: 'cos-9' })).toEqual({ type: 'status', status: 'FAILED' });
    expect(plants.on({ reference: 'MM-same', operatorTxId: 'T1' })).toBeUndefined();
    plants.clear();
    expect(plants.apply(lines)).toEqual(lines);
  });

  it('pages a day in order with an opaque cursor; a movement made meanwhile comes after, nothing twice or skipped', () => {
    const day = [3, 1, 2, 5].map((h) => line({ lineId: `L${h}`, occurredAtMs: at(`2026-11-27T0${h}:00:00Z`) }));
    const other = line({ lineId: 'Lx', occurredAtMs: at('2026-11-28T00:00:00Z') });
    const lines = linesOfDay([...day, other], '2026-11-27');
    expect(lines.map((l) => l.lineId)).toEqual(['L1', 'L2', 'L3', 'L5']);
    const first = pageOf(lines, '2026-11-27', null, 2)!;
    expect(first.items.map((l) => l.lineId)).toEqual(['L1', 'L2']);
    const later = linesOfDay([...day, line({ lineId: 'L6', occurredAtMs: at('2026-11-27T06:00:00Z') })], '2026-11-27');
    const second = pageOf(later, '2026-11-27', first.next, 2)!;
    expect(second.items.map((l) => l.lineId)).toEqual(['L3', 'L5']);
    const third = pageOf(later, '2026-11-27', second.next, 2)!;
    expect(third).toEqual({ items: [expect.objectContaining({ lineId: 'L6' })], next: null });
    // Exactly a page left: no empty page after it.
    expect(pageOf(lines, '2026-11-27', first.next, 2)!.next).toBeNull();
    expect(pageOf(lines, '2026-11-28', first.next, 2)).toBeNull();
    expect(pageOf(lines, '2026-11-27', 'not-a-cursor', 2)).toBeNull();
  });

  it.each([
    ['2026-11-27', true],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-1-2', false],
    ['27/11/2026', false],
    [undefined, false],
  ])('isDay(%s) is %s', (date, ok) => {
    expect(isDay(date)).toBe(ok);
  });
});
