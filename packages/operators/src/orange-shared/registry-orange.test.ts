import { createAccountAdapter } from '../registry.js';

const base = { baseUrl: 'http://127.0.0.1:1', timeoutMs: 1_000 };

describe('the Orange operator accounts', () => {
  it('orange-webpay needs clientId, clientSecret, merchantKey; countryPath, currency, lang are optional strings', () => {
    expect(
      createAccountAdapter('orange-webpay', {
        ...base,
        credentials: { clientId: 'a', clientSecret: 'b', merchantKey: 'k' },
        settings: { countryPath: 'dev', currency: 'OUV' },
      }).name,
    ).toBe('orange-webpay');
    expect(() =>
      createAccountAdapter('orange-webpay', {
        ...base,
        credentials: { clientId: 'a', clientSecret: 'b' },
        settings: {},
      }),
    ).toThrow('"merchantKey"');
    expect(() =>
      createAccountAdapter('orange-webpay', {
        ...base,
        credentials: { clientId: 'a', clientSecret: 'b', merchantKey: 'k' },
        settings: { countryPath: 7 },
      }),
    ).toThrow('"countryPath"');
  });

  it('orange-mp needs clientId, clientSecret, xAuthToken, pin and the channelUserMsisdn setting', () => {
    const credentials = { clientId: 'a', clientSecret: 'b', xAuthToken: 'x', pin: '1234' };
    expect(
      createAccountAdapter('orange-mp', { ...base, credentials, settings: { channelUserMsisdn: '691234567' } }).name,
    ).toBe('orange-mp');
    expect(() => createAccountAdapter('orange-mp', { ...base, credentials, settings: {} })).toThrow(
      '"channelUserMsisdn"',
    );
    expect(() =>
      createAccountAdapter('orange-mp', {
        ...base,
        credentials: { ...credentials, pin: '' },
        settings: { channelUserMsisdn: '691234567' },
      }),
    ).toThrow('"pin"');
  });
});
