/**
 * Every change of the merchants, keys and subsidiaries areas, refused to the roles without the
 * permission (viewer and approver: 403) and to a form without the session's CSRF token (403), with
 * nothing changed and no audit row.
 */
import { SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { TestClient } from '@mm/testing';
import { changeAudit, loggedIn, seedMerchant } from '../test-support/merchant-test-helpers.js';

describe('backoffice merchants, keys, subsidiaries: who may change them', () => {
  let bo: BackofficeFixture;
  let changes: { what: string; path: string; form: Record<string, string> }[];
  beforeAll(async () => {
    bo = await startBackofficeFixture();
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(bo.db, s);
    await upsertSubsidiary(bo.db, { countryCode: 'TG', countryName: 'Togo', currency: 'XOF', active: false });
    const active = await seedMerchant(bo, 'Active', 'https://active.example/hooks');
    const disabled = await seedMerchant(bo, 'Disabled');
    await bo.db.merchant.update({ where: { id: disabled.id }, data: { status: 'DISABLED' } });
    changes = [
      { what: 'create a merchant', path: '/merchants', form: { name: 'Intruder', webhook_url: '' } },
      { what: 'disable a merchant', path: `/merchants/${active.id}/disable`, form: {} },
      { what: 'enable a merchant', path: `/merchants/${disabled.id}/enable`, form: {} },
      {
        what: 'change the webhook URL',
        path: `/merchants/${active.id}/webhook-url`,
        form: { webhook_url: 'https://evil.example/' },
      },
      { what: 'create a key', path: `/merchants/${active.id}/keys`, form: {} },
      {
        what: 'rotate a key',
        path: `/merchants/${active.id}/keys/${active.key.apiKey}/rotate`,
        form: { grace_s: '0' },
      },
      { what: 'revoke a key', path: `/merchants/${active.id}/keys/${active.key.apiKey}/revoke`, form: {} },
      { what: 'deactivate a subsidiary', path: '/subsidiaries/CI/deactivate', form: {} },
      { what: 'activate a subsidiary', path: '/subsidiaries/TG/activate', form: {} },
    ];
  });
  afterAll(async () => {
    await bo.stop();
  });

  /** Everything the changes could touch. */
  async function state(): Promise<string> {
    const [merchants, keys, subsidiaries] = await Promise.all([
      bo.db.merchant.findMany({ orderBy: { id: 'asc' } }),
      bo.db.apiKey.findMany({ orderBy: { id: 'asc' } }),
      bo.db.subsidiary.findMany({ orderBy: { countryCode: 'asc' } }),
    ]);
    return JSON.stringify({ merchants, keys, subsidiaries });
  }

  async function expectAllRefused(
    client: TestClient,
    form: (f: Record<string, string>) => Record<string, string | null>,
    status: number,
  ): Promise<void> {
    const before = await state();
    for (const change of changes) {
      const res = await client.post(change.path, form(change.form));
      expect({ what: change.what, status: res.status }).toEqual({ what: change.what, status });
      expect(res.text).not.toContain('issued-api-secret');
    }
    expect(await state()).toBe(before);
    expect(await changeAudit(bo)).toEqual([]);
  }

  it.each(['viewer', 'approver'] as const)(
    'a %s can read every page but every change is refused with 403',
    async (role) => {
      const { client } = await loggedIn(bo, role);
      const merchant = (await bo.db.merchant.findFirstOrThrow()).id;
      for (const path of ['/merchants', `/merchants/${merchant}`, '/subsidiaries'])
        expect((await client.get(path)).status).toBe(200);
      // With the session's valid CSRF token: the refusal is the role's.
      expect(client.csrf).toBeDefined();
      await expectAllRefused(client, (f) => f, 403);
    },
  );

  it("an admin's change without the CSRF token, or with another one, is refused with 403", async () => {
    const { client } = await loggedIn(bo, 'admin');
    await expectAllRefused(client, (f) => ({ ...f, _csrf: null }), 403);
    await expectAllRefused(client, (f) => ({ ...f, _csrf: 'f'.repeat(64) }), 403);
  });

  it('anonymous: 401, nothing changed', async () => {
    const client = bo.client();
    await client.get('/login');
    await expectAllRefused(client, (f) => f, 401);
  });
});
