import { Writable } from 'node:stream';
import { createLogger } from '@mm/observability';
import { samplesOf, waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * Every service behind a real PgBouncer in transaction pooling mode (`pnpm test:engines`), pointed at
 * it as Prisma's documentation has it: `?pgbouncer=true` on DATABASE_URL, no DB_POOLING. Seen before:
 * the services started, then answered 500 to most cash-ins (a statement prepared by name met a server
 * connection that had not prepared it, or had it from another client) and left some CREATED.
 */
const cashins = (sys: System, prefix: string, n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      sys.api('POST', '/api/v1/payments/cashin', {
        merchant_order_id: `${prefix}-${i}`,
        amount: 5000,
        customer_msisdn: CI_NUMBER('01'),
      }),
    ),
  );

describe('told by ?pgbouncer=true on DATABASE_URL alone', () => {
  let sys: System;
  beforeAll(async () => {
    sys = await startSystem({ pgbouncerUrl: 'flagged' });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('50 cash-ins at once: each answered 202, and each completed by the workers through the pooler', async () => {
    const answers = await cashins(sys, 'flagged', 50);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    await waitFor(
      async () => {
        const rows = await sys.db.transaction.findMany({
          where: { merchantOrderId: { startsWith: 'flagged-' } },
          select: { status: true },
        });
        return (rows.length === 50 && rows.every((r) => r.status === 'SUCCESS')) || undefined;
      },
      { what: 'the 50 cash-ins in SUCCESS', timeoutMs: 30_000 },
    );
  });
});

describe('not told (DB_POOLING=direct by default, DATABASE_URL the pooler)', () => {
  let sys: System;
  const lines: { level: number; msg: string; err?: { code?: string } }[] = [];
  beforeAll(async () => {
    const log = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as (typeof lines)[number]);
        done();
      },
    });
    sys = await startSystem({
      pgbouncerUrl: 'untold',
      logger: createLogger('e2e', 'error', log),
      // The timeouts on the pooler's entry: PgBouncer refuses them as a direct pool's startup parameters.
      gatewayEnv: { DB_STATEMENT_TIMEOUT_MS: '0', DB_LOCK_TIMEOUT_MS: '0' },
    });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('cash-ins fail on statements prepared by name, and the log says it is DB_POOLING, once a minute at most, with a metric counting each', async () => {
    const answers = await cashins(sys, 'untold', 50);
    const failed = answers.filter((a) => a.status === 500);
    expect(failed.length).toBeGreaterThan(0);
    const told = lines.filter((l) => /^configuration error: /.test(l.msg));
    expect(told.length).toBeGreaterThan(0);
    // One line per service's client at most within the minute, whatever the number of statements refused.
    expect(told.length).toBeLessThanOrEqual(5);
    for (const line of told) {
      expect(line).toMatchObject({ level: 50, err: { code: expect.stringMatching(/^(26000|42P05)$/) } });
      expect(line.msg).toMatch(
        /pooler in transaction mode .*DB_POOLING=direct.*Set DB_POOLING=transaction and DATABASE_DIRECT_URL.*or add pgbouncer=true to DATABASE_URL/,
      );
    }
    const [counted] = samplesOf(
      await (await fetch(`${sys.internalUrls.gateway}/metrics`)).text(),
      'mm_db_configuration_errors_total',
    );
    expect(counted!.value).toBeGreaterThanOrEqual(failed.length);
  });
});
