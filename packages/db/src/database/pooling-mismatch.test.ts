import pg from 'pg';
import {
  isPreparedStatementMismatch,
  POOLING_MISMATCH_PROBLEM,
  POOLING_MISMATCH_REPORT_INTERVAL_MS,
  PoolingMismatches,
} from './pooling-mismatch.js';

const refusal = (code: string, message: string) => Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });

describe('a prepared statement that met another server connection', () => {
  it('is 26000 "does not exist" or 42P05 "already exists" about a prepared statement, nothing else', () => {
    expect(isPreparedStatementMismatch(refusal('26000', 'prepared statement "mm_s3" does not exist'))).toBe(true);
    expect(isPreparedStatementMismatch(refusal('42P05', 'prepared statement "mm_s1" already exists'))).toBe(true);
    expect(isPreparedStatementMismatch(refusal('42P05', 'duplicate cursor'))).toBe(false);
    expect(isPreparedStatementMismatch(refusal('57014', 'canceling statement due to statement timeout'))).toBe(false);
    expect(isPreparedStatementMismatch(new Error('prepared statement "mm_s3" does not exist'))).toBe(false);
  });

  it('is counted each time and told on the first, then at most once a minute, with the setting to change', () => {
    let now = 1_000_000;
    const told: [string, Error][] = [];
    const mismatches = new PoolingMismatches(
      (problem, err) => told.push([problem, err]),
      () => now,
    );
    const first = refusal('42P05', 'prepared statement "mm_s1" already exists');
    mismatches.notice(first);
    mismatches.notice(refusal('26000', 'prepared statement "mm_s1" does not exist'));
    mismatches.notice(refusal('57014', 'canceling statement due to statement timeout'));
    now += POOLING_MISMATCH_REPORT_INTERVAL_MS - 1;
    mismatches.notice(refusal('26000', 'prepared statement "mm_s2" does not exist'));
    expect({ count: mismatches.count, told }).toEqual({ count: 3, told: [[POOLING_MISMATCH_PROBLEM, first]] });
    now += 1;
    const later = refusal('26000', 'prepared statement "mm_s2" does not exist');
    mismatches.notice(later);
    expect({ count: mismatches.count, told: told.map(([, err]) => err) }).toEqual({ count: 4, told: [first, later] });
    expect(POOLING_MISMATCH_PROBLEM).toMatch(/^configuration error: .*DB_POOLING=direct.*Set DB_POOLING=transaction/);
  });
});
