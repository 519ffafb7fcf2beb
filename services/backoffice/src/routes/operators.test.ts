import { Writable } from 'node:stream';
import { findOperatorAccount, loadOperatorAccount, setOperatorAccountCredentials } from '@mm/db/operator-accounts';
import { SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createLogger } from '@mm/observability';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import { loggedIn, occurrences } from '../test-support/merchant-test-helpers.js';

describe('backoffice operator accounts', () => {
  let bo: BackofficeFixture;
  // Every log line of the back-office (debug and up), to check that no credential reaches them.
  const logLines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    bo = await startBackofficeFixture({}, { logger: createLogger('backoffice-test', 'debug', sink) });
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(bo.db, s);
  });
  afterAll(async () => {
    await bo.stop();
  });
  const account = async (cc: string, op: string) => (await findOperatorAccount(bo.db, cc, op))!;
  const audit = (targetId?: string) =>
    bo.db.auditEntry.findMany({
      where: { targetType: 'operator_account', ...(targetId ? { targetId } : {}) },
      orderBy: { id: 'asc' },
    });
  const rowOf = (text: string, key: string) =>
    new RegExp(`<tr data-account="${key}">[\\s\\S]*?</tr>`).exec(text)?.[0] ?? '';

  it('a viewer and an approver see every account (API, base URL, prefixes, status, credentials yes/no, settings), never a credential, and no form', async () => {
    await setOperatorAccountCredentials(bo.db, bo.box, 'CM', 'ORANGE', {
      clientId: 'viewer-must-not-see-1',
      clientSecret: 'viewer-must-not-see-2',
    });
    const sealed = (
      await bo.db.operatorAccount.findUniqueOrThrow({
        where: { countryCode_operator: { countryCode: 'CM', operator: 'ORANGE' } },
      })
    ).credentialsSealed!;
    for (const role of ['viewer', 'approver'] as const) {
      const { client } = await loggedIn(bo, role);
      const page = await client.get('/operators');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.text).toContain('data-nav="operators" aria-current="page"');
      expect(occurrences(page.text, '<tr data-account="')).toBe(10);
      const ciMtn = rowOf(page.text, 'CI:MTN');
      expect(ciMtn).toContain('<td><code>mtn-momo</code></td>');
      expect(ciMtn).toContain('<td class="prefixes">+22505</td>');
      expect(ciMtn).toContain('<span class="badge off">disabled</span>');
      expect(ciMtn).toContain('<td class="credentials"><span class="muted">no</span></td>');
      // No OPERATOR_METRICS_URLS here: the database's figures only, and the page says why.
      expect(ciMtn).toContain(
        '<td class="health" data-health><div data-health-cashins>Last hour: no cash-in</div></td>',
      );
      expect(page.text).toContain('Operator calls are not shown: OPERATOR_METRICS_URLS names no process to read');
      expect(rowOf(page.text, 'CM:ORANGE')).toContain('<td class="credentials">yes</td>');
      expect(rowOf(page.text, 'CI:SIMULATOR')).toContain('<span class="badge ok">enabled</span>');
      for (const secret of ['viewer-must-not-see-1', 'viewer-must-not-see-2', sealed])
        expect(page.text).not.toContain(secret);
      // Only the logout form: no change form for this role.
      expect(occurrences(page.text, '<form method="post"')).toBe(1);
    }
  });

  it('a viewer or an approver cannot change anything: 403, the row and the audit log untouched', async () => {
    const before = await account('CI', 'SIMULATOR');
    for (const role of ['viewer', 'approver'] as const) {
      const { client } = await loggedIn(bo, role);
      const attempts: [string, Record<string, string>][] = [
        ['/operators/CI/SIMULATOR/disable', {}],
        ['/operators/CI/SIMULATOR/down', { reason: 'not allowed' }],
        ['/operators/CI/SIMULATOR/prefixes', { prefixes: '+22501' }],
        ['/operators/CI/SIMULATOR/config', { base_url: 'https://evil.example', settings: '{}' }],
        ['/operators/CI/SIMULATOR/credentials', { credentials: 'apiToken=stolen' }],
        ['/operators', { country: 'CI', operator: 'MOOV', api: 'simulator' }],
      ];
      for (const [path, form] of attempts) {
        const res = await client.post(path, form);
        expect([path, res.status]).toEqual([path, 403]);
        expect(res.text).toContain('id="error-message"');
      }
    }
    expect(await account('CI', 'SIMULATOR')).toEqual(before);
    expect(await findOperatorAccount(bo.db, 'CI', 'MOOV')).toBeNull();
    expect(await audit()).toEqual([]);
  });

  it('an admin disables and enables, marks down with a reason and up: each changes the row and writes one audit row; again changes nothing', async () => {
    const { staff, client } = await loggedIn(bo, 'admin');
    const page = await client.get('/operators');
    expect(page.text).toContain('action="/operators/CM/SIMULATOR/disable"');
    expect(page.text).toContain('action="/operators/CM/SIMULATOR/down"');

    expect(await client.post('/operators/CM/SIMULATOR/disable')).toMatchObject({
      status: 303,
      location: '/operators?done=disabled',
    });
    expect((await account('CM', 'SIMULATOR')).enabled).toBe(false);
    expect(await client.post('/operators/CM/SIMULATOR/disable')).toMatchObject({
      status: 303,
      location: '/operators?done=unchanged',
    });
    expect(await client.post('/operators/CM/SIMULATOR/enable')).toMatchObject({
      status: 303,
      location: '/operators?done=enabled',
    });
    expect((await account('CM', 'SIMULATOR')).enabled).toBe(true);

    expect(await client.post('/operators/CM/SIMULATOR/down', { reason: 'timeouts since 10:02' })).toMatchObject({
      status: 303,
      location: '/operators?done=down',
    });
    const down = await account('CM', 'SIMULATOR');
    expect(down).toMatchObject({ markedDownReason: 'timeouts since 10:02', markedDownAt: expect.any(Date) });
    const listed = await client.get('/operators?done=down');
    expect(listed.text).toContain('The account is marked down');
    expect(rowOf(listed.text, 'CM:SIMULATOR')).toContain('<span class="down-reason">timeouts since 10:02</span>');
    expect(listed.text).toContain('action="/operators/CM/SIMULATOR/up"');
    expect(await client.post('/operators/CM/SIMULATOR/up')).toMatchObject({
      status: 303,
      location: '/operators?done=up',
    });
    expect(await account('CM', 'SIMULATOR')).toMatchObject({ markedDownReason: null, markedDownAt: null });

    const rows = await audit('CM:SIMULATOR');
    expect(rows.map((a) => [a.action, a.before, a.after])).toEqual([
      ['operator_account.disable', { enabled: true }, { enabled: false }],
      ['operator_account.enable', { enabled: false }, { enabled: true }],
      [
        'operator_account.mark_down',
        { markedDownAt: null, markedDownReason: null },
        { markedDownAt: down.markedDownAt!.toISOString(), markedDownReason: 'timeouts since 10:02' },
      ],
      [
        'operator_account.mark_up',
        { markedDownAt: down.markedDownAt!.toISOString(), markedDownReason: 'timeouts since 10:02' },
        { markedDownAt: null, markedDownReason: null },
      ],
    ]);
    expect(rows[0]).toMatchObject({ staffId: staff.id, actor: staff.email, targetType: 'operator_account' });
  });

  it('an admin edits the prefixes, the base URL and settings; a bad prefix or bad settings JSON answers the error and changes nothing', async () => {
    const { client } = await loggedIn(bo, 'admin');
    await client.get('/operators');
    expect(await client.post('/operators/CI/ORANGE/prefixes', { prefixes: '+22507, +2250799 +22508' })).toMatchObject({
      status: 303,
      location: '/operators?done=prefixes',
    });
    expect((await account('CI', 'ORANGE')).prefixes).toEqual(['+2250799', '+22507', '+22508']);

    const before = await account('CI', 'ORANGE');
    const auditBefore = (await audit('CI:ORANGE')).length;
    const bad = await client.post('/operators/CI/ORANGE/prefixes', { prefixes: '+22509, 07' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/<p class="error" id="error-message" role="alert">Not a prefix: 07\./);

    const badSettings = await client.post('/operators/CI/ORANGE/config', {
      base_url: 'https://api.orange.example',
      settings: '{"merchantKey": ',
    });
    expect(badSettings.status).toBe(400);
    expect(badSettings.text).toContain('The settings are not valid JSON');
    const notObject = await client.post('/operators/CI/ORANGE/config', {
      base_url: 'https://api.orange.example',
      settings: '["x"]',
    });
    expect(notObject.text).toContain('The settings must be a JSON object');
    const badUrl = await client.post('/operators/CI/ORANGE/config', {
      base_url: 'https://user:pw@api.orange.example',
      settings: '{}',
    });
    expect([badUrl.status, badUrl.text.includes('must not contain a user name or password')]).toEqual([400, true]);
    expect(await account('CI', 'ORANGE')).toEqual(before);
    expect(await audit('CI:ORANGE')).toHaveLength(auditBefore);

    // A sandbox (the fixture's mode): Orange's production path on Orange's host is refused, nothing changed.
    const live = await client.post('/operators/CI/ORANGE/config', {
      base_url: 'https://api.orange.example',
      settings: '{"merchantKey": "m-1", "country": "civ"}',
    });
    expect([
      live.status,
      live.text.includes(
        'Refused in a sandbox deployment: the account CI ORANGE is set up for its operator&#39;s live system',
      ),
    ]).toEqual([409, true]);
    expect(await account('CI', 'ORANGE')).toEqual(before);
    expect(await audit('CI:ORANGE')).toHaveLength(auditBefore);

    expect(
      await client.post('/operators/CI/ORANGE/config', {
        base_url: 'https://api.orange.example',
        settings: '{"merchantKey": "m-1", "country": "civ", "countryPath": "dev"}',
      }),
    ).toMatchObject({ status: 303, location: '/operators?done=config' });
    expect(await account('CI', 'ORANGE')).toMatchObject({
      baseUrl: 'https://api.orange.example',
      settings: { merchantKey: 'm-1', country: 'civ', countryPath: 'dev' },
    });
    const page = await client.get('/operators');
    expect(rowOf(page.text, 'CI:ORANGE')).toContain('<td>https://api.orange.example</td>');
    expect(rowOf(page.text, 'CI:ORANGE')).toContain('&quot;country&quot;: &quot;civ&quot;');

    expect((await audit('CI:ORANGE')).map((a) => [a.action, a.before, a.after])).toEqual([
      ['operator_account.update', { prefixes: ['+22507'] }, { prefixes: ['+2250799', '+22507', '+22508'] }],
      [
        'operator_account.update',
        { baseUrl: null, settings: {} },
        { baseUrl: 'https://api.orange.example', settings: { merchantKey: 'm-1', country: 'civ', countryPath: 'dev' } },
      ],
    ]);
  });

  it('an admin sets credentials: sealed, opened only by the services, never on a page, in a log or in the audit row (which names them)', async () => {
    const { staff, client } = await loggedIn(bo, 'admin');
    await client.get('/operators');
    const values = ['u-4f1c-api-user', 'k-9d2e-very-secret-api-key'];
    const res = await client.post('/operators/CI/MTN/credentials', {
      credentials: `apiUser=${values[0]}\napiKey=${values[1]}`,
    });
    expect(res).toMatchObject({ status: 303, location: '/operators?done=credentials' });
    expect((await loadOperatorAccount(bo.db, bo.box, 'CI', 'MTN'))?.credentials).toEqual({
      apiUser: values[0],
      apiKey: values[1],
    });
    const sealed = (
      await bo.db.operatorAccount.findUniqueOrThrow({
        where: { countryCode_operator: { countryCode: 'CI', operator: 'MTN' } },
      })
    ).credentialsSealed!;

    const page = await client.get('/operators?done=credentials');
    expect(page.text).toContain('Credentials set.');
    expect(rowOf(page.text, 'CI:MTN')).toContain('<td class="credentials">yes</td>');
    // The form is empty again; nothing of them is shown back, not even masked.
    expect(page.text).toMatch(/<textarea id="credentials-CI-MTN" name="credentials"[^>]*><\/textarea>/);
    expect(logLines.some((l) => l.includes('/operators/CI/MTN/credentials'))).toBe(true);
    for (const text of [res.text, page.text, ...logLines])
      for (const secret of [...values, sealed]) expect(text).not.toContain(secret);

    const rows = await audit('CI:MTN');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      staffId: staff.id,
      action: 'operator_account.credentials',
      before: { hasCredentials: false },
      after: { hasCredentials: true, credentialNames: ['apiKey', 'apiUser'] },
    });
    const everyAuditRow = JSON.stringify(
      (await bo.db.auditEntry.findMany()).map((a) => [a.before, a.after, a.targetId, a.action]),
    );
    for (const secret of [...values, sealed]) expect(everyAuditRow).not.toContain(secret);

    // A refused form repeats no value either, and keeps the credentials there were.
    const refused = await client.post('/operators/CI/MTN/credentials', {
      credentials: `apiUser=${values[0]}\n${values[1]}`,
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Line 2 is not name=value.');
    for (const secret of values) expect(refused.text).not.toContain(secret);
    expect(await audit('CI:MTN')).toHaveLength(1);
  });

  it('a real operator account is enabled only with a base URL and credentials (409 before, nothing changed)', async () => {
    const { client } = await loggedIn(bo, 'admin');
    await client.get('/operators');
    const refused = await client.post('/operators/SN/WAVE/enable');
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('can be enabled only once it has a base URL and credentials');
    expect((await account('SN', 'WAVE')).enabled).toBe(false);
    await client.post('/operators/SN/WAVE/config', { base_url: 'https://api.wave.example', settings: '{}' });
    await client.post('/operators/SN/WAVE/credentials', { credentials: '{"apiKey": "wave-key-1"}' });
    expect(await client.post('/operators/SN/WAVE/enable')).toMatchObject({
      status: 303,
      location: '/operators?done=enabled',
    });
    expect((await account('SN', 'WAVE')).enabled).toBe(true);
  });

  it('an admin creates an account (disabled, no prefixes), once; a bad operator, API or country is refused; an unknown account is 404', async () => {
    const { staff, client } = await loggedIn(bo, 'admin');
    const page = await client.get('/operators');
    expect(page.text).toContain('<option value="orange-webpay">orange-webpay</option>');
    expect(page.text).toContain('<option value="MOOV">MOOV</option>');

    expect(await client.post('/operators', { country: 'CI', operator: 'MOOV', api: 'simulator' })).toMatchObject({
      status: 303,
      location: '/operators?done=created',
    });
    expect(await account('CI', 'MOOV')).toMatchObject({
      api: 'simulator',
      enabled: false,
      prefixes: [],
      baseUrl: null,
      hasCredentials: false,
    });
    expect(await audit('CI:MOOV')).toEqual([
      expect.objectContaining({
        staffId: staff.id,
        action: 'operator_account.create',
        before: null,
        after: { api: 'simulator', baseUrl: null, settings: {}, prefixes: [], enabled: false },
      }),
    ]);

    expect((await client.post('/operators', { country: 'CI', operator: 'MOOV', api: 'simulator' })).status).toBe(409);
    expect((await client.post('/operators', { country: 'CI', operator: 'FREE', api: 'simulator' })).status).toBe(400);
    expect((await client.post('/operators', { country: 'CI', operator: 'MOOV', api: 'mtn' })).status).toBe(400);
    const noSubsidiary = await client.post('/operators', { country: 'ZZ', operator: 'MTN', api: 'mtn-momo' });
    expect([noSubsidiary.status, noSubsidiary.text.includes('There is no subsidiary ZZ.')]).toEqual([409, true]);
    expect(await findOperatorAccount(bo.db, 'ZZ', 'MTN')).toBeNull();
    expect(await audit('CI:MOOV')).toHaveLength(1);

    for (const path of ['/operators/SN/MOOV/enable', '/operators/ci/MTN/enable', '/operators/CI/mtn/up'])
      expect((await client.post(path)).status).toBe(404);
  });
});
