/**
 * The automatic breaker as every worker service gets it (startOperatorDirectory's wrap), against a real
 * database: the operator_accounts row marked down after N unreachable answers and up after an answered
 * probe, each change audited as system:breaker; a staff mark-down never lifted; replicas write once.
 */
import type { OperatorEnv } from '@mm/config';
import { findOperatorAccount, markOperatorAccountDown } from '@mm/db/operator-accounts';
import { createLogger, Registry } from '@mm/observability';
import { OperatorUnavailableError, type OperatorAdapter, type OperatorBreaker } from '@mm/operators';
import { sumBy } from '@mm/testing';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';
import { startOperatorDirectory } from './operator-directory.js';
import type { WorkerContext } from './start-worker-service.js';

describe('operator breaker (startOperatorDirectory, real database)', () => {
  let fixture: DbTestDatabase;
  const releases: (() => Promise<void>)[] = [];
  let now = 1_000_000;
  const operator = { reachable: false };
  const scripted: OperatorAdapter = {
    name: 'simulator',
    pushUssd: async () => {
      throw new OperatorUnavailableError('timed out');
    },
    queryStatus: async () => {
      if (!operator.reachable) throw new OperatorUnavailableError('timed out');
      return {
        found: false,
        providerState: 'PENDING',
        providerTxnStatus: null,
        providerTxId: null,
        failureReason: null,
      };
    },
    refund: async () => ({ state: 'FAILED', reason: 'x' }),
    disburse: async () => ({ state: 'FAILED', reason: 'x' }),
    parseCallback: () => null,
  };
  const env = {
    OPERATOR: 'simulator',
    OPERATOR_BASE_URL: 'http://127.0.0.1:1',
    OPERATOR_API_TOKEN: 't',
    OPERATOR_CALLBACK_SECRET: 's',
    OPERATOR_TIMEOUT_MS: 1000,
    REFERENCE_CACHE_TTL_S: 60,
    OPERATOR_BREAKER_THRESHOLD: 3,
    OPERATOR_BREAKER_PROBE_S: 30,
  } satisfies OperatorEnv;

  /** One worker process's directory and breaker (its own metrics registry). */
  async function worker() {
    const metrics = new Registry();
    const ctx = {
      env: { DATABASE_URL: fixture.database.url },
      db: fixture.db,
      logger: createLogger('breaker-test', 'silent'),
      metrics,
      onRelease: (release: () => Promise<void>) => {
        releases.push(release);
      },
    } as unknown as WorkerContext;
    let breaker: OperatorBreaker | undefined;
    const directory = await startOperatorDirectory(ctx, env, scripted, {
      now: () => now,
      onBreaker: (b) => {
        breaker = b;
      },
    });
    const unreachable = async (countryCode: string, n: number) => {
      const adapter = await directory.adapterFor({ countryCode, operator: 'SIMULATOR' });
      for (let i = 0; i < n; i++)
        await expect(
          adapter.queryStatus({ partnerReference: `MM${i}`, msisdn: '+2250707000001', amount: 1, currency: 'XOF' }),
        ).rejects.toBeInstanceOf(OperatorUnavailableError);
    };
    const answered = async (countryCode: string) => {
      const adapter = await directory.adapterFor({ countryCode, operator: 'SIMULATOR' });
      await adapter.queryStatus({ partnerReference: 'MM1', msisdn: '+2250707000001', amount: 1, currency: 'XOF' });
    };
    return { breaker: breaker!, metrics, unreachable, answered };
  }
  const audit = (targetId: string) => fixture.db.auditEntry.findMany({ where: { targetId }, orderBy: { id: 'asc' } });

  beforeAll(async () => {
    fixture = await createDbTestDatabase();
  });
  afterAll(async () => {
    for (const release of releases) await release();
    await fixture.close();
  });
  beforeEach(() => {
    operator.reachable = false;
  });

  it('marks the account down after N unreachable answers, and up after the probe is answered; both audited as system:breaker', async () => {
    const w = await worker();
    await w.unreachable('CI', 2);
    expect(await findOperatorAccount(fixture.db, 'CI', 'SIMULATOR')).toMatchObject({ markedDownAt: null });
    await w.unreachable('CI', 1);
    expect(await findOperatorAccount(fixture.db, 'CI', 'SIMULATOR')).toMatchObject({
      markedDownAt: expect.any(Date),
      markedDownReason: 'automatic: 3 consecutive unreachable answers',
    });
    expect(sumBy(await w.metrics.metrics(), 'mm_operator_breaker_state', (l) => l.account!)).toEqual({
      'CI:SIMULATOR': 1,
    });
    expect(sumBy(await w.metrics.metrics(), 'mm_operator_breaker_mark_downs_total', (l) => l.account!)).toEqual({
      'CI:SIMULATOR': 1,
    });

    // Not yet due: no probe, still down.
    now += 29_000;
    operator.reachable = true;
    await w.breaker.tick();
    expect((await findOperatorAccount(fixture.db, 'CI', 'SIMULATOR'))?.markedDownAt).not.toBeNull();
    now += 1_000;
    await w.breaker.tick();
    expect(await findOperatorAccount(fixture.db, 'CI', 'SIMULATOR')).toMatchObject({
      markedDownAt: null,
      markedDownReason: null,
    });
    expect(sumBy(await w.metrics.metrics(), 'mm_operator_breaker_state', (l) => l.account!)).toEqual({
      'CI:SIMULATOR': 0,
    });

    expect(
      (await audit('CI:SIMULATOR')).map((a) => [
        a.action,
        a.actor,
        a.staffId,
        (a.after as { markedDownReason: string | null }).markedDownReason,
      ]),
    ).toEqual([
      ['operator_account.mark_down', 'system:breaker', null, 'automatic: 3 consecutive unreachable answers'],
      ['operator_account.mark_up', 'system:breaker', null, null],
    ]);
  });

  it('never lifts a staff mark-down, even when the operator answers', async () => {
    const w = await worker();
    await markOperatorAccountDown(fixture.db, 'SN', 'SIMULATOR', 'maintenance until 14:00');
    await w.unreachable('SN', 3);
    expect(w.breaker.isOpen({ countryCode: 'SN', operator: 'SIMULATOR' })).toBe(true);
    // The operator answers a call while the breaker is open: it asks to lift it; the row's staff reason says no.
    operator.reachable = true;
    await w.answered('SN');
    now += 30_000;
    await w.breaker.tick();
    expect(await findOperatorAccount(fixture.db, 'SN', 'SIMULATOR')).toMatchObject({
      markedDownReason: 'maintenance until 14:00',
    });
    expect(await audit('SN:SIMULATOR')).toEqual([]);
  });

  it('two replicas tripping on one account write one mark-down; the other replica adopts it and probes too', async () => {
    const a = await worker();
    const b = await worker();
    await a.unreachable('CM', 3);
    await b.unreachable('CM', 3);
    expect((await audit('CM:SIMULATOR')).map((r) => r.action)).toEqual(['operator_account.mark_down']);

    // A third process that never saw a failure adopts the breaker's mark-down and lifts it on an answer.
    const c = await worker();
    operator.reachable = true;
    await c.breaker.tick();
    expect(await findOperatorAccount(fixture.db, 'CM', 'SIMULATOR')).toMatchObject({ markedDownAt: null });
    expect((await audit('CM:SIMULATOR')).map((r) => r.action)).toEqual([
      'operator_account.mark_down',
      'operator_account.mark_up',
    ]);
  });
});
