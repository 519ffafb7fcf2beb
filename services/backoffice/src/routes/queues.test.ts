import { QUEUE_NAMES } from '@mm/queues';
import { waitFor } from '@mm/testing';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { TestClient } from '@mm/testing';
import { fixtureQueue, logInAs } from '../test-support/transaction-data.js';

describe('/queues: the Bull dashboard (admin only)', () => {
  let bo: BackofficeFixture;
  let probe: ReturnType<typeof fixtureQueue>;
  let admin: { staff: { id: string; email: string }; client: TestClient };
  beforeAll(async () => {
    bo = await startBackofficeFixture();
    probe = fixtureQueue(bo, QUEUE_NAMES.operatorRequests);
    // A real job under the service's prefix: the dashboard must see it.
    await probe.queue.add(QUEUE_NAMES.operatorRequests, { transaction_id: 'probe' }, { jobId: 'probe-job' });
    admin = await logInAs(bo, 'admin');
  });
  afterAll(async () => {
    await probe.close();
    await bo.stop();
  });

  /** A request from the client's session with headers of our choosing (what a browser page would send). */
  function call(
    client: TestClient,
    method: string,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return fetch(`${bo.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { cookie, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(method === 'GET' ? {} : { body: '{}' }),
    });
  }
  const pause = (headers: Record<string, string>) =>
    call(admin.client, 'PUT', `/queues/api/queues/${QUEUE_NAMES.operatorRequests}/pause`, headers);

  it('is 403 for approvers and viewers; anonymous visitors go to the login page or get 401', async () => {
    for (const role of ['approver', 'viewer'] as const) {
      const { client } = await logInAs(bo, role);
      expect((await client.get('/')).text).not.toContain('data-nav="queues"');
      expect((await client.get('/queues')).status).toBe(403);
      expect((await client.get('/queues/api/queues')).status).toBe(403);
      expect((await call(client, 'PUT', '/queues/api/queues/pause', { 'sec-fetch-site': 'same-origin' })).status).toBe(
        403,
      );
    }
    expect(await bo.client().get('/queues')).toMatchObject({ status: 303, location: '/login?next=%2Fqueues' });
    expect(
      (await call(bo.client(), 'PUT', '/queues/api/queues/pause', { 'sec-fetch-site': 'same-origin' })).status,
    ).toBe(401);
    expect(await probe.queue.isPaused()).toBe(false);
  });

  it('serves the dashboard to admins with a CSP that lets its own assets run, forbids framing and inline scripts', async () => {
    expect((await admin.client.get('/')).text).toContain('data-nav="queues"');
    const page = await admin.client.get('/queues');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<base href="/queues/" />');
    expect(page.text).toContain('<div id="root">');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-powered-by')).toBeNull();

    const script = /<script defer src="(static\/js\/main\.[^"]+\.js)">/.exec(page.text)![1]!;
    const asset = await admin.client.get(`/queues/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect((await admin.client.get('/queues/no-such-page')).status).toBe(404);
  });

  it('its API lists every queue of the system, with the real jobs', async () => {
    const res = await call(admin.client, 'GET', '/queues/api/queues');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { queues: { name: string; counts: Record<string, number> }[] };
    expect(new Set(body.queues.map((q) => q.name))).toEqual(new Set(Object.values(QUEUE_NAMES)));
    expect(body.queues.find((q) => q.name === QUEUE_NAMES.operatorRequests)!.counts.waiting).toBe(1);
  });

  it('refuses an action from another site (or with no origin at all); a same-origin one works and is audited', async () => {
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      // A sibling site shares the SameSite=Lax cookie but not the origin.
      { origin: 'https://other.example.test', 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      {},
    ];
    for (const headers of refused) expect((await pause(headers)).status).toBe(403);
    expect(await probe.queue.isPaused()).toBe(false);
    expect(await bo.db.auditEntry.count({ where: { action: 'queues.action' } })).toBe(0);

    expect((await pause({ origin: bo.url })).status).toBe(200);
    expect(await probe.queue.isPaused()).toBe(true);
    const resume = await call(admin.client, 'PUT', `/queues/api/queues/${QUEUE_NAMES.operatorRequests}/resume`, {
      'sec-fetch-site': 'same-origin',
    });
    expect(resume.status).toBe(200);
    expect(await probe.queue.isPaused()).toBe(false);

    const audit = await waitFor(
      async () => {
        const rows = await bo.db.auditEntry.findMany({ where: { action: 'queues.action' }, orderBy: { id: 'asc' } });
        return rows.length === 2 && rows;
      },
      { what: 'the audit rows of the dashboard actions' },
    );
    expect(audit.map((r) => [r.staffId, r.targetType, r.targetId, (r.after as { call: string }).call])).toEqual([
      [admin.staff.id, 'queue', QUEUE_NAMES.operatorRequests, `PUT /api/queues/${QUEUE_NAMES.operatorRequests}/pause`],
      [admin.staff.id, 'queue', QUEUE_NAMES.operatorRequests, `PUT /api/queues/${QUEUE_NAMES.operatorRequests}/resume`],
    ]);
  });
});
