import { randomBytes } from 'node:crypto';
import { isIssuedApiKeyFormat } from './api-key.js';

describe('API key format (what the system issues)', () => {
  it.each([
    `pk_${randomBytes(16).toString('hex')}`,
    'pk_0123456789abcdef0123456789abcdef',
    // The development seed's demo key (packages/config DEMO_MERCHANT).
    'pk_demo_5f1c2a9e4b7d4c3a8e6f0b1d2c3e4f50',
  ])('accepts %s', (key) => {
    expect(isIssuedApiKeyFormat(key)).toBe(true);
  });

  it.each([
    '',
    'pk_',
    'pk_0123456789abcdef0123456789abcde',
    'pk_0123456789abcdef0123456789abcdef0',
    'PK_0123456789abcdef0123456789abcdef',
    'pk_0123456789ABCDEF0123456789abcdef',
    'pk_0123456789abcdef0123456789abcdeg',
    'sk_0123456789abcdef0123456789abcdef',
    'pk_test_0123456789abcdef0123456789abcdef',
    'pk_demo_',
    'pk_unknown0000000000000000000000',
    ' pk_0123456789abcdef0123456789abcdef',
    'pk_0123456789abcdef0123456789abcdef\n',
    'pk_0123456789abcdef0123456789abcdef, pk_0123456789abcdef0123456789abcdef',
    'pk_0123456789abcdef0123456789abcdeé',
  ])('refuses %j', (key) => {
    expect(isIssuedApiKeyFormat(key)).toBe(false);
  });
});
