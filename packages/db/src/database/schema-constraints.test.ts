import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';

// The database refuses bad money rows by itself, whatever the code above it does.
describe('SQL constraints', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let merchantId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(
      `INSERT INTO subsidiaries (country_code, country_name, currency, active) VALUES ('CI', 'CI', 'XOF', true)`,
    );
    merchantId = (await client.query(`INSERT INTO merchants (name) VALUES ('M') RETURNING id`)).rows[0].id;
  });
  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  const insertTx = (order: string, amount: number, ref: string) =>
    client.query(
      `INSERT INTO transactions (merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, request_fingerprint, provider_reference)
     VALUES ($1, $2, 'CASHIN', 'CREATED', $3, 'XOF', 'CI', '+2250707000001', 'f', $4)`,
      [merchantId, order, amount, ref],
    );

  it('refuses an amount of zero or less', async () => {
    await expect(insertTx('o-zero', 0, 'r-zero')).rejects.toThrow(/check constraint/);
    await expect(insertTx('o-neg', -5, 'r-neg')).rejects.toThrow(/check constraint/);
  });

  it('refuses a second transaction with the same merchant_order_id for one merchant', async () => {
    await insertTx('o-1', 100, 'r-1');
    await expect(insertTx('o-1', 100, 'r-2')).rejects.toThrow(/transactions_merchant_order_key/);
  });

  it('refuses a negative merchant balance, and refunds beyond the amount', async () => {
    await expect(
      client.query(
        `INSERT INTO ledger_accounts (merchant_id, country_code, currency, kind, balance) VALUES ($1, 'CI', 'XOF', 'MERCHANT_AVAILABLE', -1)`,
        [merchantId],
      ),
    ).rejects.toThrow(/ledger_accounts_merchant_non_negative/);
    await expect(
      client.query(`UPDATE transactions SET refund_reserved_amount = amount + 1 WHERE merchant_order_id = 'o-1'`),
    ).rejects.toThrow(/transactions_refunds_within_amount/);
  });
});
