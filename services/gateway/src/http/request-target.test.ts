import { requestTargetOf } from './request-target.js';

describe('the request target X-Service-Request-Signature covers', () => {
  it.each([
    ['/api/v1/balances', '/api/v1/balances'],
    [
      '/api/v1/transactions/export?date_from=2026-01-01&date_to=2026-01-31',
      '/api/v1/transactions/export?date_from=2026-01-01&date_to=2026-01-31',
    ],
    ['/api/v1/payments/%7Bid%7D', '/api/v1/payments/%7Bid%7D'],
    ['http://pay.example.com/api/v1/balances?x=1', '/api/v1/balances?x=1'],
    ['HTTPS://pay.example.com:8443/api/v1/balances', '/api/v1/balances'],
    ['http://pay.example.com', '/'],
  ])('%s -> %s', (originalUrl, target) => {
    expect(requestTargetOf(originalUrl)).toBe(target);
  });
});
