import { createOperatorAdapter, OPERATOR_NAMES } from './registry.js';
import { SimulatorOperatorAdapter } from './simulator/client.js';

describe('createOperatorAdapter', () => {
  it('builds the simulator adapter from its config', () => {
    const adapter = createOperatorAdapter({ operator: 'simulator', baseUrl: 'http://127.0.0.1:3003', apiToken: 't', callbackSecret: 's', timeoutMs: 1000 });
    expect(adapter).toBeInstanceOf(SimulatorOperatorAdapter);
    expect(adapter.name).toBe('simulator');
    expect(OPERATOR_NAMES).toEqual(['simulator']);
  });

  it('refuses an operator it does not know (config read from the environment is not type-checked)', () => {
    expect(() => createOperatorAdapter({ operator: 'nope' } as never)).toThrow(/unknown operator "nope"/);
  });
});
