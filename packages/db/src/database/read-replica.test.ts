import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { ReadReplica, type ReadReplicaOptions } from './read-replica.js';

/**
 * What a replica that cannot be read does, and how its lag is counted from the heartbeats (a real
 * standby, cut from its primary among other faults: e2e/read-replica.engines.test.ts). A second migrated
 * database plays a replica that replays nothing: its heartbeat row moves only when the test moves it.
 */
describe('ReadReplica', () => {
  const opened: ReadReplica[] = [];
  let primary: TestDatabase;
  let frozen: TestDatabase;
  beforeAll(async () => {
    [primary, frozen] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    for (const r of opened) await r.close();
    await Promise.all([primary?.drop(), frozen?.drop()]);
  });
  const start = async (o: Partial<ReadReplicaOptions> & { url: string }, heard: string[] = []) => {
    const replica = await ReadReplica.start({
      primaryUrl: primary.url,
      maxLagS: 3600,
      probeIntervalMs: 60_000,
      connectTimeoutMs: 1000,
      onError: (_err, what) => heard.push(what),
      ...o,
    });
    opened.push(replica);
    return replica;
  };
  const sql = async (url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };

  it('down: every read goes to the primary, and its going down is heard once, not at every probe', async () => {
    const heard: string[] = [];
    const replica = await start({ url: 'postgresql://postgres@127.0.0.1:1/nowhere' }, heard);
    await replica.probe();
    expect(replica.state).toEqual({ up: false, standby: false, lagSeconds: null });
    expect(replica.usable()).toBe(false);
    expect(
      await replica.read(
        async () => 'replica',
        async () => 'primary',
      ),
    ).toBe('primary');
    expect(replica.reads).toEqual({ replica: 0, primary: 1 });
    expect(heard).toEqual(['probe']);
  });

  it('a primary named as the replica (or a promoted one) is never read: it answers, shows every heartbeat, but not as a standby', async () => {
    const replica = await start({ url: primary.url });
    expect(replica.state).toEqual({ up: true, standby: false, lagSeconds: 0 });
    expect(replica.usable()).toBe(false);
    expect(
      await replica.read(
        async () => 'replica',
        async () => 'primary',
      ),
    ).toBe('primary');
  });

  it('each probe bumps the heartbeat on the primary', async () => {
    const before = Number((await sql(primary.url, 'SELECT seq FROM replica_heartbeat'))[0]!.seq);
    const replica = await start({ url: primary.url });
    await replica.probe();
    expect(Number((await sql(primary.url, 'SELECT seq FROM replica_heartbeat'))[0]!.seq)).toBe(before + 2);
  });

  it('the lag is the age of the oldest heartbeat the replica does not show, and 0 once it shows them all', async () => {
    let clock = 1_000_000;
    const replica = await start({ url: frozen.url, now: () => clock });
    // The first bump was sent at 1 000 000 and the frozen replica does not show it.
    expect(replica.state.lagSeconds).toBe(0);
    clock += 4_000;
    await replica.probe();
    expect(replica.state).toEqual({ up: true, standby: false, lagSeconds: 4 });
    clock += 2_500;
    await replica.probe();
    expect(replica.state.lagSeconds).toBe(6.5);
    // It replays up to the primary's newest bump: nothing of ours is missing.
    const [{ seq }] = (await sql(primary.url, 'SELECT seq::text AS seq FROM replica_heartbeat')) as [{ seq: string }];
    await sql(frozen.url, `UPDATE replica_heartbeat SET seq = ${seq}`);
    clock += 1_000;
    await replica.probe();
    // The bump of this probe came after the copy: it alone is missing, sent just now.
    expect(replica.state.lagSeconds).toBe(0);
    await sql(frozen.url, 'UPDATE replica_heartbeat SET seq = 0');
    clock += 3_000;
    await replica.probe();
    expect(replica.state.lagSeconds).toBe(3);
  });

  it('a heartbeat the primary does not take: the lag counts from the last one it took, and no bump ever taken is no lag known', async () => {
    const heard: string[] = [];
    const neverBeats = await start({ url: frozen.url, primaryUrl: 'postgresql://postgres@127.0.0.1:1/nowhere' }, heard);
    expect(neverBeats.state).toEqual({ up: true, standby: false, lagSeconds: null });
    await neverBeats.probe();
    expect(heard).toEqual(['heartbeat']);

    // A replica that shows every bump (a number past any the primary will reach), whose primary goes away.
    const doomed = await createTestDatabase();
    await sql(frozen.url, 'UPDATE replica_heartbeat SET seq = 1000000000000');
    let clock = 5_000_000;
    const replica = await start({ url: frozen.url, primaryUrl: doomed.url, now: () => clock }, heard);
    expect(replica.state.lagSeconds).toBe(0);
    await doomed.drop();
    clock += 7_000;
    // Whatever the primary committed since the last bump it took is unknown: 7 s of it.
    await replica.probe();
    expect(replica.state).toEqual({ up: true, standby: false, lagSeconds: 7 });
    expect(heard.filter((w) => w === 'heartbeat')).toHaveLength(2);
  });
});
