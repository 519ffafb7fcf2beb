import path from 'node:path';
import { parseMockEnv } from './mock-env.js';

describe('parseMockEnv', () => {
  it("the documented ports, the bridge's Wave route and the simulator's delays, each overridable", () => {
    expect(parseMockEnv({})).toEqual({
      ports: { mtnCi: 3011, mtnCm: 3012, orangeWebpay: 3013, orangeMp: 3014, wave: 3015 },
      waveWebhookUrl: 'http://127.0.0.1:3002/operator/callbacks/wave/ci',
      waveAutoPay: false,
      providerCallbackHost: '127.0.0.1',
      outcomeDelayMs: 2000,
      lateConfirmDelayMs: 330_000,
      recordsDir: null,
      logLevel: 'info',
    });
    expect(parseMockEnv({ MOCK_WAVE_PORT: '4015', MOCK_WAVE_WEBHOOK_URL: '' })).toMatchObject({
      ports: { wave: 4015 },
      waveWebhookUrl: null,
    });
    expect(parseMockEnv({ SIM_OUTCOME_DELAY_MS: '50', SIM_LATE_CONFIRM_DELAY_MS: '500' })).toMatchObject({
      outcomeDelayMs: 50,
      lateConfirmDelayMs: 500,
    });
  });

  it('keeps records in OPERATOR_RECORDS_DIR (made absolute), as the simulator does; empty or unset is in memory', () => {
    expect(parseMockEnv({ OPERATOR_RECORDS_DIR: 'rel/records' }).recordsDir).toBe(path.resolve('rel/records'));
    expect(parseMockEnv({ OPERATOR_RECORDS_DIR: '' }).recordsDir).toBeNull();
  });

  it('a Wave customer pays on the launch page unless MOCK_WAVE_AUTOPAY=true (the chaos suite: outcomes by number alone)', () => {
    expect(parseMockEnv({ MOCK_WAVE_AUTOPAY: 'true' })).toMatchObject({ waveAutoPay: true });
    expect(parseMockEnv({ MOCK_WAVE_AUTOPAY: 'false' })).toMatchObject({ waveAutoPay: false });
    expect(() => parseMockEnv({ MOCK_WAVE_AUTOPAY: 'yes' })).toThrow(/MOCK_WAVE_AUTOPAY/);
  });

  it("registers the demo MTN API users for the host of the bridge's OPERATOR_CALLBACK_BASE_URL, as the bridge reads it", () => {
    expect(parseMockEnv({ OPERATOR_CALLBACK_BASE_URL: 'https://callbacks.example.test:8443/base' })).toMatchObject({
      providerCallbackHost: 'callbacks.example.test',
    });
    expect(() => parseMockEnv({ OPERATOR_CALLBACK_BASE_URL: 'not a url' })).toThrow(/OPERATOR_CALLBACK_BASE_URL/);
  });

  it('refuses a bad value instead of guessing', () => {
    expect(() => parseMockEnv({ MOCK_MTN_CI_PORT: 'yes' })).toThrow(/MOCK_MTN_CI_PORT/);
  });
});
