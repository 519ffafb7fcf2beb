import { createAccountAdapter, OPERATOR_APIS } from '../registry.js';
import { mtnMomoConfigFromAccount } from './account.js';
import { MtnMomoAdapter } from './client.js';

const collection = { collectionSubscriptionKey: 'k', collectionApiUser: 'u', collectionApiKey: 'a' };
const disbursement = { disbursementSubscriptionKey: 'dk', disbursementApiUser: 'du', disbursementApiKey: 'da' };
const account = (credentials: Record<string, string>, settings: Record<string, unknown> = {}) => ({
  baseUrl: 'http://127.0.0.1:1',
  credentials,
  settings,
  timeoutMs: 1000,
});

describe('an mtn-momo operator account', () => {
  it('builds the MTN adapter by its API name, sandbox by default', () => {
    expect(OPERATOR_APIS).toContain('mtn-momo');
    const adapter = createAccountAdapter('mtn-momo', account({ ...collection, ...disbursement }));
    expect(adapter).toBeInstanceOf(MtnMomoAdapter);
    expect(adapter.name).toBe('mtn-momo');
    expect(mtnMomoConfigFromAccount(account({ ...collection, ...disbursement }))).toMatchObject({
      targetEnvironment: 'sandbox',
      collection: { subscriptionKey: 'k', apiUser: 'u', apiKey: 'a' },
      disbursement: { subscriptionKey: 'dk', apiUser: 'du', apiKey: 'da' },
    });
  });

  it('takes the live target environment from its settings, and Disbursement credentials as optional', () => {
    const config = mtnMomoConfigFromAccount(account(collection, { targetEnvironment: 'mtnivorycoast' }));
    expect(config.targetEnvironment).toBe('mtnivorycoast');
    expect(config.disbursement).toBeUndefined();
  });

  it('names what is missing or wrong', () => {
    expect(() => mtnMomoConfigFromAccount(account({}))).toThrow(
      /lack "collectionSubscriptionKey", "collectionApiUser", "collectionApiKey"/,
    );
    expect(() => mtnMomoConfigFromAccount(account({ ...collection, disbursementApiUser: 'du' }))).toThrow(
      /lack "disbursementSubscriptionKey", "disbursementApiKey"/,
    );
    expect(() => mtnMomoConfigFromAccount(account(collection, { targetEnvironment: 'mtn ci' }))).toThrow(
      /targetEnvironment/,
    );
  });
});
