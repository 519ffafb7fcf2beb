import { randomBytes } from 'node:crypto';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';
import { SecretBox } from '../database/index.js';
import { loadOperatorAccount, sealCredentials, setOperatorAccountCredentials } from './credentials.js';
import {
  markOperatorAccountDown,
  markOperatorAccountUp,
  normalisePrefixes,
  setOperatorAccountPrefixes,
  upsertOperatorAccount,
} from './changes.js';
import { findOperatorAccount, listOperatorAccounts } from './summary.js';

describe('operator accounts', () => {
  let fixture: DbTestDatabase;
  const box = new SecretBox(randomBytes(32).toString('hex'));
  beforeAll(async () => {
    fixture = await createDbTestDatabase();
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('are seeded for CI, SN and CM: the simulator enabled on the test numbers, real operators disabled until configured', async () => {
    const all = await listOperatorAccounts(fixture.db);
    const byKey = Object.fromEntries(all.map((a) => [`${a.countryCode}:${a.operator}`, a]));
    expect(Object.keys(byKey).sort()).toEqual([
      'CI:MTN',
      'CI:ORANGE',
      'CI:SIMULATOR',
      'CI:WAVE',
      'CM:MTN',
      'CM:ORANGE',
      'CM:SIMULATOR',
      'SN:ORANGE',
      'SN:SIMULATOR',
      'SN:WAVE',
    ]);
    expect(byKey['CI:MTN']).toMatchObject({
      api: 'mtn-momo',
      prefixes: ['+22505'],
      enabled: false,
      hasCredentials: false,
    });
    expect(byKey['CM:ORANGE']).toMatchObject({ api: 'orange-mp', enabled: false });
    expect(byKey['CI:SIMULATOR']).toMatchObject({ enabled: true, prefixes: expect.arrayContaining(['+2250707']) });
  });

  it('seal credentials bound to their row: stored sealed, opened only by loadOperatorAccount, never in a summary', async () => {
    await setOperatorAccountCredentials(fixture.db, box, 'CI', 'MTN', { collectionApiKey: 'k-secret-1' });
    const row = await fixture.db.operatorAccount.findUniqueOrThrow({
      where: { countryCode_operator: { countryCode: 'CI', operator: 'MTN' } },
    });
    expect(row.credentialsSealed).not.toContain('k-secret-1');
    const summary = await findOperatorAccount(fixture.db, 'CI', 'MTN');
    expect(summary).toMatchObject({ hasCredentials: true });
    expect(JSON.stringify(summary)).not.toContain(row.credentialsSealed!);
    expect((await loadOperatorAccount(fixture.db, box, 'CI', 'MTN'))?.credentials).toEqual({
      collectionApiKey: 'k-secret-1',
    });
  });

  it('credentials copied onto another account do not open', async () => {
    const sealed = sealCredentials(box, { countryCode: 'CI', operator: 'MTN' }, { apiKey: 'x' });
    await fixture.db.operatorAccount.update({
      where: { countryCode_operator: { countryCode: 'SN', operator: 'WAVE' } },
      data: { credentialsSealed: sealed },
    });
    await expect(loadOperatorAccount(fixture.db, box, 'SN', 'WAVE')).rejects.toThrow();
  });

  it('prefixes are checked and stored longest first; a bad one changes nothing', async () => {
    expect(normalisePrefixes(['+22505', '+2250555', '+22505'])).toEqual(['+2250555', '+22505']);
    await expect(setOperatorAccountPrefixes(fixture.db, 'CI', 'ORANGE', ['+22507', '07'])).rejects.toThrow(/07/);
    expect((await findOperatorAccount(fixture.db, 'CI', 'ORANGE'))?.prefixes).toEqual(['+22507']);
  });

  it('marked down with a reason, and up again', async () => {
    await markOperatorAccountDown(fixture.db, 'CM', 'MTN', 'timeouts since 10:02');
    expect(await findOperatorAccount(fixture.db, 'CM', 'MTN')).toMatchObject({
      markedDownReason: 'timeouts since 10:02',
      markedDownAt: expect.any(Date),
    });
    await markOperatorAccountUp(fixture.db, 'CM', 'MTN');
    expect(await findOperatorAccount(fixture.db, 'CM', 'MTN')).toMatchObject({
      markedDownReason: null,
      markedDownAt: null,
    });
  });

  it('upsert creates an account with its settings, or changes only the fields given', async () => {
    await upsertOperatorAccount(fixture.db, {
      countryCode: 'SN',
      operator: 'MTN',
      api: 'mtn-momo',
      baseUrl: 'http://127.0.0.1:3011',
      settings: { targetEnvironment: 'sandbox' },
    });
    await upsertOperatorAccount(fixture.db, { countryCode: 'SN', operator: 'MTN', api: 'mtn-momo', enabled: true });
    expect(await findOperatorAccount(fixture.db, 'SN', 'MTN')).toMatchObject({
      baseUrl: 'http://127.0.0.1:3011',
      settings: { targetEnvironment: 'sandbox' },
      enabled: true,
      prefixes: [],
    });
  });
});
