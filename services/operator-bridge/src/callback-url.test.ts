import { callbackUrlFor } from './callback-url.js';

describe('the callback URL a payment gives its operator', () => {
  it.each([
    [
      "a simulator payment: its account's route (the account's secret verifies it)",
      { operator: 'SIMULATOR', countryCode: 'SN' },
      'https://cb.example/operator/callbacks/simulator/sn',
    ],
    [
      "an MTN payment: its account's route naming the payment (a hint)",
      { operator: 'MTN', countryCode: 'CI' },
      'https://cb.example/operator/callbacks/mtn/ci/MMREF1',
    ],
  ])('%s', (_what, t, url) => {
    expect(callbackUrlFor('https://cb.example/', { ...t, providerReference: 'MMREF1' })).toBe(url);
  });
});
