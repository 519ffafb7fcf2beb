import type { DayReport, DayReportAccount } from '@mm/db/reconciliation';
import { MATCH_CATEGORIES } from '@mm/domain';
import { dayReportCsv } from './day-report-csv.js';

const zeros = () =>
  Object.fromEntries(MATCH_CATEGORIES.map((c) => [c, { count: 0, amount: 0 }])) as DayReportAccount['by_category'];

describe('dayReportCsv', () => {
  it('writes per account a line per category, then a line per open case; a never-reconciled account has no reconciled_at', () => {
    const report: DayReport = {
      date: '2026-11-27',
      operator: null,
      country_code: null,
      accounts: [
        {
          country_code: 'CI',
          operator: 'WAVE',
          currency: 'XOF',
          run: { runs: 2, sources: ['API'], finished_at: '2026-11-28T01:30:04.120Z' },
          matched: 3,
          by_category: { ...zeros(), MATCHED: { count: 3, amount: 4500 }, AMOUNT_DIFFERS: { count: 1, amount: 100 } },
          open_cases: 1,
          unmatched_amount: { XOF: 100 },
          resolved_cases: {},
          cases: [
            {
              id: '0b5b3f0e-8f4a-4d55-9c57-0d0f4a3c1e11',
              kind: 'CASHIN',
              reference: '=HYPERLINK("http://x","pay, now")',
              category: 'AMOUNT_DIFFERS',
              difference: -100,
              currency: 'XOF',
              transaction_id: null,
              refund_id: null,
              opened_at: '2026-11-28T01:30:04.100Z',
            },
          ],
        },
        {
          country_code: 'CM',
          operator: 'MTN',
          currency: 'XAF',
          run: null,
          matched: 0,
          by_category: zeros(),
          open_cases: 0,
          unmatched_amount: {},
          resolved_cases: {},
          cases: [],
        },
      ],
    };
    const ci = 'category,2026-11-27,CI,WAVE,2026-11-28T01:30:04.120Z';
    expect(dayReportCsv(report)).toBe(
      [
        'record,date,country_code,operator,reconciled_at,category,count,amount,currency,case_id,kind,reference,difference,transaction_id,opened_at',
        `${ci},MATCHED,3,4500,XOF,,,,,,`,
        `${ci},STATUS_DIFFERS,0,0,XOF,,,,,,`,
        `${ci},AMOUNT_DIFFERS,1,100,XOF,,,,,,`,
        `${ci},MISSING_AT_OPERATOR,0,0,XOF,,,,,,`,
        `${ci},UNKNOWN_TO_US,0,0,XOF,,,,,,`,
        `${ci},PENDING,0,0,XOF,,,,,,`,
        // An operator's reference read as text by a spreadsheet, never as a formula; quoted for its comma and quotes.
        'open_case,2026-11-27,CI,WAVE,2026-11-28T01:30:04.120Z,AMOUNT_DIFFERS,,100,XOF,0b5b3f0e-8f4a-4d55-9c57-0d0f4a3c1e11,CASHIN,' +
          '"\'=HYPERLINK(""http://x"",""pay, now"")",-100,,2026-11-28T01:30:04.100Z',
        ...MATCH_CATEGORIES.map((c) => `category,2026-11-27,CM,MTN,,${c},0,0,XAF,,,,,,`),
        '',
      ].join('\r\n'),
    );
  });
});
