import { parseMockEnv } from './mock-env.js';

describe('parseMockEnv', () => {
  it('starts no mock unless asked: a simulator of a test or a container must not take their ports', () => {
    expect(parseMockEnv({})).toEqual({ enabled: false });
  });

  it('with OPERATOR_MOCKS=on: the documented ports and the bridge\'s Wave route, each overridable', () => {
    expect(parseMockEnv({ OPERATOR_MOCKS: 'on' })).toEqual({
      enabled: true,
      ports: { mtnCi: 3011, mtnCm: 3012, orangeWebpay: 3013, orangeMp: 3014, wave: 3015 },
      waveWebhookUrl: 'http://127.0.0.1:3002/operator/callbacks/wave/ci',
      waveAutoPay: false,
      providerCallbackHost: '127.0.0.1',
    });
    expect(parseMockEnv({ OPERATOR_MOCKS: 'on', MOCK_WAVE_PORT: '4015', MOCK_WAVE_WEBHOOK_URL: '' })).toMatchObject({ ports: { wave: 4015 }, waveWebhookUrl: null });
  });

  it('a Wave customer pays on the launch page unless MOCK_WAVE_AUTOPAY=true (the chaos suite: outcomes by number alone)', () => {
    expect(parseMockEnv({ OPERATOR_MOCKS: 'on', MOCK_WAVE_AUTOPAY: 'true' })).toMatchObject({ waveAutoPay: true });
    expect(parseMockEnv({ OPERATOR_MOCKS: 'on', MOCK_WAVE_AUTOPAY: 'false' })).toMatchObject({ waveAutoPay: false });
    expect(() => parseMockEnv({ OPERATOR_MOCKS: 'on', MOCK_WAVE_AUTOPAY: 'yes' })).toThrow(/MOCK_WAVE_AUTOPAY/);
  });

  it('registers the demo MTN API users for the host of the bridge\'s OPERATOR_CALLBACK_BASE_URL, as the bridge reads it', () => {
    expect(parseMockEnv({ OPERATOR_MOCKS: 'on', OPERATOR_CALLBACK_BASE_URL: 'https://callbacks.example.test:8443/base' })).toMatchObject({ providerCallbackHost: 'callbacks.example.test' });
    expect(() => parseMockEnv({ OPERATOR_MOCKS: 'on', OPERATOR_CALLBACK_BASE_URL: 'not a url' })).toThrow(/OPERATOR_CALLBACK_BASE_URL/);
  });

  it('refuses a bad value instead of guessing', () => {
    expect(() => parseMockEnv({ OPERATOR_MOCKS: 'yes' })).toThrow(/OPERATOR_MOCKS/);
  });
});
