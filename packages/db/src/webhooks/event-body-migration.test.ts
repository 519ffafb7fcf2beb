import pg from 'pg';
import { createMigrationFixture, type MigrationFixture } from '@mm/testing/test-database';

const MIGRATION = '20261207000000_webhook_event_body';

/** How the dispatcher built a body from the jsonb payload before the migration (the interface's fields first). */
function bodyBefore(payload: Record<string, unknown>): string {
  const order = [
    'event',
    'event_id',
    'transaction_id',
    'merchant_order_id',
    'type',
    'status',
    'amount',
    'currency',
    'country_code',
    'provider_tx_id',
    'failure_code',
    'failure_reason',
    'timestamp',
  ];
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const keys = Object.keys(payload).sort((a, b) => rank(a) - rank(b));
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, payload[k]])));
}

/**
 * Migration 20261207000000: an event is sent with the body stored beside it. Events recorded before it get
 * the very bytes the dispatcher built for them until then, so a retry or a resend sends nothing new.
 */
describe(`migration ${MIGRATION}`, () => {
  let fixture: MigrationFixture;
  beforeAll(async () => {
    fixture = await createMigrationFixture(MIGRATION);
  });
  afterAll(() => fixture.close());

  it('gives every earlier event the body it was sent with', async () => {
    await fixture.migrateBefore();

    const payloads: Record<string, unknown>[] = [
      {
        event: 'transaction.status_changed',
        event_id: 'e-1',
        transaction_id: 't-1',
        merchant_order_id: 'order "1"',
        type: 'CASHIN',
        status: 'FAILED',
        amount: 5000,
        currency: 'XOF',
        country_code: 'CI',
        provider_tx_id: null,
        failure_code: 'UNKNOWN',
        failure_reason: 'refusé\n\u0001 \\ /',
        operator: 'MTN',
        timestamp: '2026-03-01T10:00:00.000+00:00',
      },
      {
        event: 'refund.status_changed',
        event_id: 'e-2',
        refund_id: 'r-1',
        transaction_id: 't-2',
        merchant_order_id: 'o-2',
        amount: 2500.5,
        currency: 'XAF',
        reason: 'Client mécontent 🙂',
        status: 'SUCCESS',
        failure_reason: null,
        provider_reference: 'RF1',
        created_at: '2026-03-01T10:00:00.000Z',
        updated_at: '2026-03-01T10:00:01.000Z',
        completed_at: null,
        timestamp: '2026-03-01T10:00:01.000+00:00',
      },
      {},
    ];
    const c = new pg.Client({ connectionString: fixture.database.url });
    await c.connect();
    try {
      const {
        rows: [m],
      } = await c.query(`INSERT INTO merchants (name) VALUES ('Before') RETURNING id`);
      for (const p of payloads) {
        await c.query(
          `INSERT INTO webhook_events (id, merchant_id, event_type, payload) VALUES (gen_random_uuid(), $1, 'x', $2)`,
          [m.id, JSON.stringify(p)],
        );
      }
      // What the dispatcher read back then: jsonb's own key order, which bodyBefore sorted.
      const { rows: stored } = await c.query<{ id: string; payload: Record<string, unknown> }>(
        `SELECT id::text, payload FROM webhook_events ORDER BY seq`,
      );

      expect(await fixture.migrateIt()).toEqual([MIGRATION]);
      const { rows } = await c.query<{ id: string; body: string | null }>(
        `SELECT id::text, body FROM webhook_events ORDER BY seq`,
      );
      expect(rows.map((r) => r.body)).toEqual(
        stored.map((s) => (Object.keys(s.payload).length ? bodyBefore(s.payload) : null)),
      );
      expect(rows[1]!.body).toContain('"reason":"Client mécontent 🙂","refund_id":"r-1"');
    } finally {
      await c.end();
    }
  });
});
