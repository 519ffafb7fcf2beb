import { presentBalance } from './balance-presenter.js';

describe('presentBalance', () => {
  // Exact bytes, field order included: what GET /balances has always sent.
  it('is one country with its balances as numbers', () => {
    const row = {
      countryCode: 'CI',
      countryName: "Côte d'Ivoire",
      currency: 'XOF',
      available: 125_000n,
      pending: 5_000n,
      updatedAt: new Date('2026-03-01T10:00:00.000Z'),
    };
    expect(JSON.stringify(presentBalance(row))).toBe(
      '{"country_code":"CI","country_name":"Côte d\'Ivoire","currency":"XOF","available_balance":125000,"pending_balance":5000,"updated_at":"2026-03-01T10:00:00.000Z"}',
    );
  });
});
