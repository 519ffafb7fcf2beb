import pg from 'pg';
import { createMigrationFixture, type MigrationFixture } from '@mm/testing/test-database';

const MIGRATION = '20261125200000_webhook_attempt_error_detail';
const REFUSED = 'target refused: the URL must be http(s) and its host must resolve to public addresses only';

/**
 * Migration 20261125200000: attempts recorded before it kept the detail (addresses, resolver errors) in
 * `error`, which merchants read. It moves the detail to error_detail and leaves the generic reason.
 */
describe(`migration ${MIGRATION}`, () => {
  let fixture: MigrationFixture;
  beforeAll(async () => {
    fixture = await createMigrationFixture(MIGRATION);
  });
  afterAll(() => fixture.close());

  it('moves the detail of earlier attempts to error_detail and gives the merchant the generic reason', async () => {
    await fixture.migrateBefore();

    const old: [string | null, string | null][] = [
      ['refused target internal.example: 10.0.0.7 is a private address', REFUSED],
      ['cannot resolve redis.mobilemoney.svc.cluster.local: ENOTFOUND', REFUSED],
      ['target URL scheme ftp: is not http(s)', REFUSED],
      ['ECONNREFUSED: connect ECONNREFUSED 203.0.113.9:443', 'connection refused'],
      ['ECONNRESET: socket hang up', 'connection reset'],
      ['EHOSTUNREACH: connect EHOSTUNREACH 203.0.113.9:443', 'host unreachable'],
      ['DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate', 'TLS handshake failed'],
      ['ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match', 'TLS handshake failed'],
      ['some library message naming 10.1.2.3', 'connection failed'],
      ['timeout after 10000 ms', 'timeout after 10000 ms'],
      ['merchant has no active key', 'merchant has no active key'],
      [null, null],
    ];
    const c = new pg.Client({ connectionString: fixture.database.url });
    await c.connect();
    try {
      const {
        rows: [m],
      } = await c.query(`INSERT INTO merchants (name) VALUES ('Before') RETURNING id`);
      const {
        rows: [e],
      } = await c.query(
        `INSERT INTO webhook_events (id, merchant_id, event_type, payload) VALUES (gen_random_uuid(), $1, 'transaction.status_changed', '{}') RETURNING id`,
        [m.id],
      );
      for (const [i, [error]] of old.entries()) {
        await c.query(
          `INSERT INTO webhook_attempts (event_id, attempt_no, target_url, latency_ms, error, success) VALUES ($1, $2, 'https://x.example/', 1, $3, $4)`,
          [e.id, i + 1, error, error === null],
        );
      }

      expect(await fixture.migrateIt()).toEqual([MIGRATION]);
      const { rows } = await c.query(`SELECT error, error_detail FROM webhook_attempts ORDER BY attempt_no`);
      expect(rows.map((r) => [r.error_detail, r.error])).toEqual(old);
    } finally {
      await c.end();
    }
  });
});
