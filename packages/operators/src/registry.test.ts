import { OPERATOR_API_NAMES } from '@mm/domain';
import { createAccountAdapter, OPERATOR_APIS } from './registry.js';
import { SimulatorOperatorAdapter } from './simulator/client.js';

const account = (credentials: Record<string, string>) => ({
  baseUrl: 'http://127.0.0.1:3003',
  credentials,
  settings: {},
  timeoutMs: 1000,
});

describe('createAccountAdapter', () => {
  it('builds the simulator adapter from its account', () => {
    const adapter = createAccountAdapter('simulator', account({ apiToken: 't', callbackSecret: 's' }));
    expect(adapter).toBeInstanceOf(SimulatorOperatorAdapter);
    expect(adapter.name).toBe('simulator');
    expect(OPERATOR_APIS).toContain('simulator');
  });

  it('names the credential an account lacks', () => {
    expect(() => createAccountAdapter('simulator', account({ apiToken: 't' }))).toThrow(/lack "callbackSecret"/);
  });

  it('refuses an API it does not know (accounts are data, not type-checked)', () => {
    expect(() => createAccountAdapter('nope', account({}))).toThrow(/unknown operator API "nope"/);
  });
});

it('every API an account may name (checked by the back-office and the CLI) has an adapter, and no adapter is left out', () => {
  expect([...OPERATOR_APIS].sort()).toEqual([...OPERATOR_API_NAMES].sort());
});
