import { SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import { changeAudit, loggedIn, occurrences } from '../test-support/merchant-test-helpers.js';

describe('backoffice subsidiaries', () => {
  let bo: BackofficeFixture;
  beforeAll(async () => {
    bo = await startBackofficeFixture();
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(bo.db, s);
    await upsertSubsidiary(bo.db, { countryCode: 'TG', countryName: 'Togo', currency: 'XOF', active: false });
  });
  afterAll(async () => {
    await bo.stop();
  });
  const isActive = async (countryCode: string) =>
    (await bo.db.subsidiary.findUniqueOrThrow({ where: { countryCode } })).active;

  it('a viewer sees every subsidiary (code, name, currency, status) and no button', async () => {
    const { client } = await loggedIn(bo, 'viewer');
    const page = await client.get('/subsidiaries');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-nav="subsidiaries" aria-current="page"');
    const row = (cc: string) => new RegExp(`<tr data-country="${cc}">[\\s\\S]*?</tr>`).exec(page.text)?.[0] ?? '';
    expect(row('CI')).toContain('<td><code>CI</code></td><td>Côte d&#39;Ivoire</td><td>XOF</td>');
    expect(row('CI')).toContain('<span class="badge">active</span>');
    expect(row('CM')).toContain('<td>XAF</td>');
    expect(row('TG')).toContain('<span class="badge off">inactive</span>');
    expect(occurrences(page.text, '<form method="post"')).toBe(1);
  });

  it('an admin deactivates and activates a subsidiary, one audit row each; doing it twice records nothing more', async () => {
    const { staff, client } = await loggedIn(bo, 'admin');
    const page = await client.get('/subsidiaries');
    expect(page.text).toContain('action="/subsidiaries/SN/deactivate"');
    expect(page.text).toContain('action="/subsidiaries/TG/activate"');

    expect(await client.post('/subsidiaries/SN/deactivate')).toMatchObject({
      status: 303,
      location: '/subsidiaries?done=deactivated',
    });
    expect(await isActive('SN')).toBe(false);
    expect(await client.post('/subsidiaries/SN/deactivate')).toMatchObject({
      status: 303,
      location: '/subsidiaries?done=unchanged',
    });
    expect(await client.post('/subsidiaries/SN/activate')).toMatchObject({
      status: 303,
      location: '/subsidiaries?done=activated',
    });
    expect(await isActive('SN')).toBe(true);
    expect((await client.get('/subsidiaries?done=activated')).text).toContain('The subsidiary is active');

    const audit = await changeAudit(bo, { targetId: 'SN' });
    expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
      ['subsidiary.deactivate', { active: true }, { active: false }],
      ['subsidiary.activate', { active: false }, { active: true }],
    ]);
    expect(audit[0]).toMatchObject({ staffId: staff.id, actor: staff.email, targetType: 'subsidiary' });
  });

  it('an unknown or malformed country is 404', async () => {
    const { client } = await loggedIn(bo, 'admin');
    await client.get('/subsidiaries');
    for (const cc of ['ZZ', 'ci', 'CIV']) expect((await client.post(`/subsidiaries/${cc}/activate`)).status).toBe(404);
  });
});
