import { failingOperator } from '../testing/failing-operator.js';
import { SimulatorOperatorAdapter } from '../simulator/client.js';
import { OperatorDirectory, type AccountRecord, type OperatorDirectoryOptions } from './operator-directory.js';

const simulator = {
  baseUrl: 'http://127.0.0.1:3003',
  credentials: { apiToken: 't', callbackSecret: 's' },
  settings: {},
  timeoutMs: 1000,
};
const wave = (apiKey: string): AccountRecord => ({
  countryCode: 'SN',
  operator: 'WAVE',
  api: 'wave',
  baseUrl: 'http://127.0.0.1:3015',
  credentials: { apiKey, webhookSecret: 'w' },
  settings: {},
});

function directory(rows: Record<string, AccountRecord | null>, o: Partial<OperatorDirectoryOptions> = {}) {
  const changes = { generation: 0, listening: true };
  const loads: string[] = [];
  let now = 0;
  const dir = new OperatorDirectory({
    load: async (k) => {
      loads.push(`${k.countryCode}:${k.operator}`);
      return rows[`${k.countryCode}:${k.operator}`] ?? null;
    },
    changes,
    ttlMs: 60_000,
    simulator,
    timeoutMs: 1000,
    now: () => now,
    ...o,
  });
  return {
    dir,
    changes,
    loads,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('OperatorDirectory', () => {
  it("builds an account's adapter once and keeps it (and its access token) while nothing changed", async () => {
    const { dir, loads } = directory({ 'SN:WAVE': wave('wave_sn_prod_key1') });
    const first = await dir.adapterFor({ countryCode: 'SN', operator: 'WAVE' });
    expect(first.name).toBe('wave');
    expect(await dir.adapterFor({ countryCode: 'SN', operator: 'WAVE' })).toBe(first);
    expect(loads).toEqual(['SN:WAVE']);
  });

  it('rebuilds it after a change is notified (new credentials apply without a restart)', async () => {
    const rows = { 'SN:WAVE': wave('wave_sn_prod_key1') };
    const { dir, changes, loads } = directory(rows);
    const first = await dir.adapterFor({ countryCode: 'SN', operator: 'WAVE' });
    rows['SN:WAVE'] = wave('wave_sn_prod_key2');
    changes.generation++;
    expect(await dir.adapterFor({ countryCode: 'SN', operator: 'WAVE' })).not.toBe(first);
    expect(loads).toEqual(['SN:WAVE', 'SN:WAVE']);
  });

  it('while notifications are not heard, keeps an adapter no longer than the TTL', async () => {
    const { dir, changes, loads, advance } = directory({ 'SN:WAVE': wave('wave_sn_prod_key1') });
    changes.listening = false;
    await dir.adapterFor({ countryCode: 'SN', operator: 'WAVE' });
    advance(59_999);
    await dir.adapterFor({ countryCode: 'SN', operator: 'WAVE' });
    advance(1);
    await dir.adapterFor({ countryCode: 'SN', operator: 'WAVE' });
    expect(loads).toHaveLength(2);
  });

  it('a SIMULATOR account without base URL or credentials of its own, or none at all, is the simulator of the settings', async () => {
    const { dir } = directory({
      'CI:SIMULATOR': {
        countryCode: 'CI',
        operator: 'SIMULATOR',
        api: 'simulator',
        baseUrl: null,
        credentials: null,
        settings: {},
      },
    });
    expect(await dir.adapterFor({ countryCode: 'CI', operator: 'SIMULATOR' })).toBeInstanceOf(SimulatorOperatorAdapter);
    expect(await dir.adapterFor({ countryCode: 'TG', operator: 'SIMULATOR' })).toBeInstanceOf(SimulatorOperatorAdapter);
  });

  it('uses the test adapter for the simulator when one is given', async () => {
    const fake = failingOperator(new Error('x'));
    const { dir } = directory({}, { simulatorAdapter: fake });
    expect(await dir.adapterFor({ countryCode: 'CI', operator: 'SIMULATOR' })).toBe(fake);
  });

  it('refuses an account that does not exist, or lacks what its adapter needs, naming it', async () => {
    const { dir } = directory({
      'CI:MTN': {
        countryCode: 'CI',
        operator: 'MTN',
        api: 'mtn-momo',
        baseUrl: 'http://x',
        credentials: null,
        settings: {},
      },
    });
    await expect(dir.adapterFor({ countryCode: 'CI', operator: 'MOOV' })).rejects.toThrow(
      'no operator account CI:MOOV',
    );
    await expect(dir.adapterFor({ countryCode: 'CI', operator: 'MTN' })).rejects.toThrow(
      'operator account CI:MTN has no credentials',
    );
  });

  it('wraps every adapter it builds with the account it serves (per-account metrics)', async () => {
    const wrapped: string[] = [];
    const { dir } = directory(
      { 'SN:WAVE': wave('wave_sn_prod_key1') },
      {
        wrap: (a, k) => {
          wrapped.push(`${k.countryCode}:${k.operator}`);
          return a;
        },
      },
    );
    await dir.adapterFor({ countryCode: 'SN', operator: 'WAVE' });
    expect(wrapped).toEqual(['SN:WAVE']);
  });
});
