import { MAX_STATEMENT_LINES, parseStatement } from './statement-csv.js';

describe('parseStatement', () => {
  it("reads the operators' words for kinds and statuses, and the UTC day of each movement", () => {
    const parsed = parseStatement(
      [
        'Kind,Reference,Operator_Tx_Id,Amount,Currency,Status,Occurred_At',
        'COLLECTION,MP1,OM-1,5000,xof,SUCCESSFUL,2026-11-27T23:30:00-01:00',
        'refund,RF1,,2000,XOF,FAILED,2026-11-27',
        'transfer,,OM-3,700,XAF,processing,2026-11-27T10:00:00Z',
        '',
      ].join('\r\n'),
    );
    expect(parsed).toEqual({
      ok: true,
      records: [
        expect.objectContaining({
          kind: 'CASHIN',
          reference: 'MP1',
          operatorTxId: 'OM-1',
          amount: 5000,
          currency: 'XOF',
          outcome: 'SUCCESS',
          businessDate: '2026-11-28',
        }),
        expect.objectContaining({
          kind: 'REFUND',
          reference: 'RF1',
          operatorTxId: null,
          amount: 2000,
          outcome: 'FAILED',
          businessDate: '2026-11-27',
        }),
        expect.objectContaining({
          kind: 'PAYOUT',
          reference: null,
          operatorTxId: 'OM-3',
          currency: 'XAF',
          outcome: 'PENDING',
        }),
      ],
    });
  });

  it(`reads a statement of ${MAX_STATEMENT_LINES} movements, and refuses one line more whole`, () => {
    const statement = (n: number) =>
      [
        'kind,reference,amount,currency,status,occurred_at',
        ...Array.from({ length: n }, (_, i) => `CASHIN,MP${i},${1000 + (i % 50)},XOF,SUCCESS,2026-11-27T10:00:00Z`),
      ].join('\n');
    const atBound = parseStatement(statement(MAX_STATEMENT_LINES));
    expect(atBound.ok && atBound.records.length).toBe(MAX_STATEMENT_LINES);
    expect(atBound.ok && atBound.records[MAX_STATEMENT_LINES - 1]).toMatchObject({
      reference: `MP${MAX_STATEMENT_LINES - 1}`,
    });
    expect(parseStatement(statement(MAX_STATEMENT_LINES + 1))).toEqual({
      ok: false,
      errors: [
        {
          line: MAX_STATEMENT_LINES + 2,
          message: `more than ${MAX_STATEMENT_LINES} movements: split the statement by day`,
        },
      ],
    });
  }, 60_000);

  it('refuses the whole file, naming every bad line and why', () => {
    const parsed = parseStatement(
      [
        'kind,reference,amount,currency,status,occurred_at',
        'CASHIN,MP1,5000,XOF,SUCCESS,2026-11-27',
        'BONUS,MP2,5000,XOF,SUCCESS,2026-11-27',
        'CASHIN,MP3,50.5,XOF,SUCCESS,2026-11-27',
        'CASHIN,MP4,5000,XOF,MAYBE,2026-11-27',
        'CASHIN,,5000,XOF,SUCCESS,2026-11-27',
        'CASHIN,MP6,5000,XOF,SUCCESS,yesterday',
      ].join('\n'),
    );
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors.map((e) => [e.line, e.message.split(' ')[0]])).toEqual([
      [3, 'kind'],
      [4, 'amount'],
      [5, 'status'],
      [6, 'neither'],
      [7, 'occurred_at'],
    ]);
  });

  it('refuses a header without the columns it needs, and a file that is not CSV', () => {
    expect(parseStatement('kind,amount\nCASHIN,5')).toEqual({
      ok: false,
      errors: [{ line: 1, message: 'the header lacks currency, status, occurred_at, reference or operator_tx_id' }],
    });
    expect(parseStatement('kind,reference,amount,currency,status,occurred_at\n')).toMatchObject({
      ok: false,
      errors: [{ line: 1 }],
    });
    const broken = parseStatement(
      'kind,reference,amount,currency,status,occurred_at\nCASHIN,"MP1,5000,XOF,SUCCESS,2026-11-27\n',
    );
    expect(broken).toMatchObject({ ok: false, errors: [{ message: expect.stringMatching(/^not a CSV file/) }] });
  });
});
