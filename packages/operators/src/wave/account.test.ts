import { createAccountAdapter } from '../registry.js';
import { WaveOperatorAdapter } from './client.js';

const account = (credentials: Record<string, string>) => ({
  baseUrl: 'http://127.0.0.1:1',
  credentials,
  settings: {},
  timeoutMs: 1000,
});

describe('a Wave operator account', () => {
  it('builds the Wave adapter from apiKey and webhookSecret', () => {
    const adapter = createAccountAdapter('wave', account({ apiKey: 'wave_sn_prod_abc123', webhookSecret: 's' }));
    expect(adapter).toBeInstanceOf(WaveOperatorAdapter);
    expect(adapter.name).toBe('wave');
  });

  it.each([
    [{ webhookSecret: 's' }, /lack "apiKey"/],
    [{ apiKey: 'sk_live_123', webhookSecret: 's' }, /not a Wave API key/],
    [{ apiKey: 'wave_sn_prod_abc' }, /lack "webhookSecret"/],
  ])('refuses %j, naming what is wrong', (credentials, message) => {
    expect(() => createAccountAdapter('wave', account(credentials))).toThrow(message);
  });
});
