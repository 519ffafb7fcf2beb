import { ReadReplica } from './read-replica.js';

/** What a replica that cannot be read does (a real standby: e2e/read-replica.engines.test.ts). */
describe('ReadReplica', () => {
  const opened: ReadReplica[] = [];
  afterAll(async () => {
    for (const r of opened) await r.close();
  });
  const start = async (url: string, heard: string[] = []) => {
    const replica = await ReadReplica.start({ url, maxLagS: 3600, probeIntervalMs: 60_000, connectTimeoutMs: 1000, onError: (_err, what) => heard.push(what) });
    opened.push(replica);
    return replica;
  };

  it('down: every read goes to the primary, and its going down is heard once, not at every probe', async () => {
    const heard: string[] = [];
    const replica = await start('postgresql://postgres@127.0.0.1:1/nowhere', heard);
    await replica.probe();
    expect(replica.state).toEqual({ up: false, standby: false, lagSeconds: null });
    expect(replica.usable()).toBe(false);
    expect(await replica.read(async () => 'replica', async () => 'primary')).toBe('primary');
    expect(replica.reads).toEqual({ replica: 0, primary: 1 });
    expect(heard).toEqual(['probe']);
  });

  it('a primary named as the replica (or a promoted one) is never read: it answers, but not as a standby', async () => {
    const replica = await start('postgresql://postgres@127.0.0.1:5432/postgres');
    expect(replica.state).toEqual({ up: true, standby: false, lagSeconds: 0 });
    expect(replica.usable()).toBe(false);
    expect(await replica.read(async () => 'replica', async () => 'primary')).toBe('primary');
  });
});
