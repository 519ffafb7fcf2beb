import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';
import type { Db } from '../database/index.js';
import { insertOutbox } from './outbox.js';
import { recordFailedRun, unparkJob } from './outbox-parking.js';

describe('recordFailedRun', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createDbTestDatabase();
    ({ db } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('counts each failed job once, however many relays report it, and says parkedNow to the one call that parks the row', async () => {
    const row = await db.$transaction((tx) =>
      insertOutbox(tx, { topic: 'refund-requests', payload: { refund_id: '5b1f3c1e-2f0a-4c55-9f3e-1d2c3b4a5f60' } }),
    );
    const failed = (n: number) => ({ key: `${row.id}_0@${n}`, reason: `run ${n} failed` });

    expect(await recordFailedRun(db, row.id, failed(1), 2)).toEqual({ failedRuns: 1, parked: false, parkedNow: false });
    // The same failed job read by a second replica: not counted again.
    expect(await recordFailedRun(db, row.id, failed(1), 2)).toEqual({ failedRuns: 1, parked: false, parkedNow: false });
    expect(await recordFailedRun(db, row.id, failed(2), 2)).toEqual({ failedRuns: 2, parked: true, parkedNow: true });
    const parkedAt = (await db.outbox.findUniqueOrThrow({ where: { id: row.id } })).parkedAt;
    // A later report (a race with the relay) neither parks it again nor moves its parking time.
    expect(await recordFailedRun(db, row.id, failed(3), 2)).toEqual({ failedRuns: 3, parked: true, parkedNow: false });
    expect(await db.outbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      parkedAt,
      lastError: 'run 3 failed',
    });

    expect(await db.$transaction((tx) => unparkJob(tx, row.id))).toBe(true);
    expect(await db.outbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      parkedAt: null,
      failedRuns: 0,
      run: 1,
    });
    expect(await db.$transaction((tx) => unparkJob(tx, row.id))).toBe(false);
  });

  it('ignores a report for a row that is done', async () => {
    const row = await db.$transaction((tx) =>
      insertOutbox(tx, { topic: 'refund-requests', payload: { refund_id: '6b1f3c1e-2f0a-4c55-9f3e-1d2c3b4a5f60' } }),
    );
    await db.outbox.update({ where: { id: row.id }, data: { completedAt: new Date() } });
    expect(await recordFailedRun(db, row.id, { key: 'k', reason: 'r' }, 1)).toBeNull();
  });
});
