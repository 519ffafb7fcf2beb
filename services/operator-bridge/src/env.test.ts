import { parseEnv } from './env.js';

describe('operator bridge environment: RECONCILIATION_CRON', () => {
  it('defaults to 01:30 every day (UTC), and takes another pattern of 5 or 6 fields', () => {
    expect(parseEnv({}).RECONCILIATION_CRON).toBe('30 1 * * *');
    expect(parseEnv({ RECONCILIATION_CRON: '0 3 * * 1-5' }).RECONCILIATION_CRON).toBe('0 3 * * 1-5');
    expect(parseEnv({ RECONCILIATION_CRON: '0 */15 2 * * *' }).RECONCILIATION_CRON).toBe('0 */15 2 * * *');
  });

  it('takes empty as "no scheduled reconciliation"', () => {
    expect(parseEnv({ RECONCILIATION_CRON: '' }).RECONCILIATION_CRON).toBe('');
  });

  it.each(['daily', '30 1 * *', '30 1 * * * * *', '30; 1 * * *'])('refuses %j, naming the variable', (value) => {
    expect(() => parseEnv({ RECONCILIATION_CRON: value })).toThrow(/RECONCILIATION_CRON.*cron pattern/);
  });
});
