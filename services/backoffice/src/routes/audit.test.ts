import { recordAudit } from '@mm/db/staff';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { PageResponse } from '@mm/testing';
import { logInAs } from '../test-support/transaction-data.js';

describe('/audit: the staff audit log (admin only)', () => {
  let bo: BackofficeFixture;
  beforeAll(async () => {
    bo = await startBackofficeFixture();
  });
  afterAll(async () => {
    await bo.stop();
  });

  const rowsOn = (page: PageResponse) =>
    [...page.text.matchAll(/<tr data-audit-id="(\d+)" data-action="([^"]+)">/g)].map((m) => ({
      id: m[1]!,
      action: m[2]!,
    }));

  it('is 403 for approvers and viewers, with no link to it', async () => {
    for (const role of ['approver', 'viewer'] as const) {
      const { client } = await logInAs(bo, role);
      expect((await client.get('/')).text).not.toContain('data-nav="audit"');
      const page = await client.get('/audit');
      expect(page.status).toBe(403);
      expect(page.text).not.toContain('id="audit-table"');
    }
  });

  it('shows who did what, when, to what, with the record before and after, newest first', async () => {
    const admin = await logInAs(bo, 'admin');
    const target = await bo.createStaff('viewer');
    await admin.client.get('/staff');
    expect((await admin.client.post(`/staff/${target.id}/disable`)).status).toBe(303);
    await admin.client.get('/staff');
    expect((await admin.client.post(`/staff/${target.id}/enable`)).status).toBe(303);

    const page = await admin.client.get(`/audit?target_type=staff&target_id=${target.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-nav="audit" aria-current="page"');
    expect(rowsOn(page).map((r) => r.action)).toEqual(['staff.enable', 'staff.disable']);
    const disable = /<tr data-audit-id="\d+" data-action="staff.disable">[\s\S]*?<\/tr>/.exec(page.text)![0];
    expect(disable).toContain(admin.staff.email);
    expect(disable).toMatch(/<time datetime="\d{4}-\d\d-\d\dT/);
    expect(disable).toContain(target.id);
    // Before and after as JSON, escaped.
    expect(disable).toMatch(
      /<pre class="json">[^<]*&quot;disabledAt&quot;: null[^<]*<\/pre><\/td><td><pre class="json">[^<]*&quot;disabledAt&quot;: &quot;\d{4}-/,
    );
  });

  it('filters by actor, whatever its case, and pages older entries with the filters kept', async () => {
    for (let i = 0; i < 53; i++) {
      await recordAudit(bo.db, {
        staffId: null,
        actor: 'pager@example.test',
        action: `page.step${i}`,
        targetType: 'pager',
        targetId: 'p1',
      });
    }
    await recordAudit(bo.db, {
      staffId: null,
      actor: 'other@example.test',
      action: 'page.other',
      targetType: 'pager',
      targetId: 'p1',
    });
    const { client } = await logInAs(bo, 'admin');

    const first = await client.get('/audit?actor=PAGER%40Example.test&target_type=pager');
    const firstRows = rowsOn(first);
    expect(firstRows).toHaveLength(50);
    expect(firstRows[0]!.action).toBe('page.step52');
    expect(firstRows.map((r) => r.action)).not.toContain('page.other');
    const older = /<a id="older-page" href="([^"]+)">/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    expect(older).toMatch(/actor=PAGER%40Example.test/);
    const second = await client.get(older);
    expect(rowsOn(second).map((r) => r.action)).toEqual(['page.step2', 'page.step1', 'page.step0']);
    expect(second.text).not.toContain('id="older-page"');

    const other = await client.get('/audit?actor=other%40example.test');
    expect(rowsOn(other).map((r) => r.action)).toEqual(['page.other']);
    expect((await client.get('/audit?target_type=pager&target_id=nothing')).text).toContain('id="no-entries"');
  });

  it('refuses a damaged page link with a message', async () => {
    const { client } = await logInAs(bo, 'admin');
    const page = await client.get('/audit?before=12abc');
    expect(page.status).toBe(400);
    expect(page.text).toContain('The page link is damaged');
    expect(page.text).not.toContain('id="audit-table"');
  });
});
