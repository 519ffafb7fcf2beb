import { parseEnv as parse } from './env.js';

const parseEnv = (env: Record<string, string>) => parse({ MASTER_KEY: 'ab'.repeat(32), ...env });

describe('GATEWAY_PUBLIC_URL', () => {
  it('is the gateway on this machine by default, given without its trailing slash, and http(s) only', () => {
    expect(parseEnv({}).GATEWAY_PUBLIC_URL).toBe('http://127.0.0.1:3000');
    expect(parseEnv({ GATEWAY_PUBLIC_URL: 'https://pay.example.com/' }).GATEWAY_PUBLIC_URL).toBe(
      'https://pay.example.com',
    );
    expect(() => parseEnv({ GATEWAY_PUBLIC_URL: 'ftp://pay.example.com' })).toThrow(/GATEWAY_PUBLIC_URL/);
  });
});
