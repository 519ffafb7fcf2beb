import path from 'node:path';
import { parseEnv as parseSimulatorEnv } from './env.js';

const SIM_SANDBOX_TOKEN = 'sandbox-token-for-env-tests';
// Every case but the token's own is about other variables: give it the token it requires.
const parseEnv = (source: NodeJS.ProcessEnv) => parseSimulatorEnv({ SIM_SANDBOX_TOKEN, ...source });

describe('parseEnv', () => {
  it('applies the documented defaults', () => {
    expect(parseEnv({})).toEqual({
      port: 3003,
      apiToken: 'sim-token',
      sandboxToken: SIM_SANDBOX_TOKEN,
      callbackSecret: 'sim-callback-secret',
      outcomeDelayMs: 2000,
      lateConfirmDelayMs: 330_000,
      hangMs: 60_000,
      recordsDir: null,
      logLevel: 'info',
    });
  });

  it('keeps records in OPERATOR_RECORDS_DIR (made absolute) when set; empty or unset is in memory', () => {
    expect(parseEnv({ OPERATOR_RECORDS_DIR: '/srv/records' }).recordsDir).toBe('/srv/records');
    expect(parseEnv({ OPERATOR_RECORDS_DIR: 'rel/records' }).recordsDir).toBe(path.resolve('rel/records'));
    expect(parseEnv({ OPERATOR_RECORDS_DIR: '' }).recordsDir).toBeNull();
  });

  it('reads every variable, ignoring unrelated ones', () => {
    expect(
      parseEnv({
        OPERATOR_SIMULATOR_PORT: '4003',
        OPERATOR_API_TOKEN: 't',
        OPERATOR_CALLBACK_SECRET: 's',
        SIM_OUTCOME_DELAY_MS: '10',
        SIM_LATE_CONFIRM_DELAY_MS: '20',
        SIM_HANG_MS: '0',
        LOG_LEVEL: 'warn',
        PATH: '/usr/bin',
      }),
    ).toEqual({
      port: 4003,
      apiToken: 't',
      sandboxToken: SIM_SANDBOX_TOKEN,
      callbackSecret: 's',
      outcomeDelayMs: 10,
      lateConfirmDelayMs: 20,
      hangMs: 0,
      recordsDir: null,
      logLevel: 'warn',
    });
  });

  it('requires SIM_SANDBOX_TOKEN, 16 characters at least: no published default opens the sandbox', () => {
    expect(() => parseSimulatorEnv({})).toThrow(/SIM_SANDBOX_TOKEN/);
    expect(() => parseEnv({ SIM_SANDBOX_TOKEN: 'short' })).toThrow(/SIM_SANDBOX_TOKEN/);
  });

  it('fails at boot listing every bad value', () => {
    const message = (() => {
      try {
        parseEnv({ OPERATOR_SIMULATOR_PORT: 'http', SIM_HANG_MS: '-1', OPERATOR_API_TOKEN: '' });
      } catch (err) {
        return String(err);
      }
      return 'no error';
    })();
    for (const name of ['OPERATOR_SIMULATOR_PORT', 'SIM_HANG_MS', 'OPERATOR_API_TOKEN'])
      expect(message).toContain(name);
  });
});
