/**
 * The role table enforced on every route: each declared route (all-routes.ts) asked by a user of each role,
 * refused with the forbidden page exactly when merchantCan says no. A route served without being declared
 * fails too: the routers' sources are read for every `router.get|post('<path>'` under their mount point.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MERCHANT_ROLES, merchantCan, type MerchantRole } from '@mm/domain';
import type { TestClient } from '@mm/testing';
import { t } from '../i18n/messages.js';
import { startPortalFixture, type PortalFixture, type PortalUser } from '../test-support/portal-fixture.js';
import { ALL_ROUTES } from './all-routes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SOME_ID = '00000000-0000-4000-8000-000000000000';
/** Served before the session check, to anyone: sign-in, sign-out, language, and links followed from a mail. */
const PUBLIC_FILES = new Set(['sign-in.ts', 'invitations.ts', 'password-reset.ts', 'sign-up.ts']);

/** `app.use('/prefix', xRouter(` in app.ts: the mount point of each router factory. */
function mountPoints(): Map<string, string> {
  const app = readFileSync(join(HERE, '..', 'app.ts'), 'utf8');
  const mounts = new Map<string, string>();
  for (const m of app.matchAll(/app\.use\(\s*(?:'([^']*)',\s*)?(\w+Router)\(/g)) mounts.set(m[2]!, m[1] ?? '');
  return mounts;
}

/** Every (method, full path) the routers under routes/ register, from their source. */
function servedRoutes(): string[] {
  const mounts = mountPoints();
  const served: string[] = [];
  for (const file of readdirSync(HERE)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || PUBLIC_FILES.has(file)) continue;
    const source = readFileSync(join(HERE, file), 'utf8');
    const factory = /export function (\w+Router)\(/.exec(source)?.[1];
    if (!factory) continue;
    const prefix = mounts.get(factory);
    if (prefix === undefined) throw new Error(`${factory} (${file}) is not mounted in app.ts`);
    for (const r of source.matchAll(/router\.(get|post)\(\s*'([^']+)'/g)) {
      const path = `${prefix}${r[2] === '/' && prefix ? '' : r[2]}`.replace(/:\w+/g, ':id') || '/';
      served.push(`${r[1]!.toUpperCase()} ${path}`);
    }
  }
  return served;
}

describe('route × role', () => {
  let portal: PortalFixture;
  const clients = new Map<MerchantRole, TestClient>();
  const users = new Map<MerchantRole, PortalUser>();

  beforeAll(async () => {
    portal = await startPortalFixture();
    const merchantId = await portal.createMerchant();
    for (const role of MERCHANT_ROLES) {
      const client = portal.client({ 'accept-language': 'en' });
      const user = await portal.createUser(merchantId, role);
      await portal.signIn(client, user);
      clients.set(role, client);
      users.set(role, user);
    }
  });
  afterAll(() => portal.stop());

  it('declares every route a router serves', () => {
    const declared = new Set(ALL_ROUTES.map((r) => `${r.method} ${r.path}`));
    expect(servedRoutes().filter((r) => !declared.has(r))).toEqual([]);
  });

  const forbiddenText = t('en').forbidden;
  const cases = ALL_ROUTES.flatMap((rule) => MERCHANT_ROLES.map((role) => ({ ...rule, role })));

  it.each(cases)('$method $path as $role', async ({ method, path, permission, role }) => {
    const client = clients.get(role)!;
    // A route before may have ended the session (sign out of every session): sign in again.
    if ((await client.get('/account')).status !== 200) await portal.signIn(client, users.get(role)!);
    const url = path.replace(/:id/g, SOME_ID);
    const res = method === 'GET' ? await client.get(url) : await client.post(url, {});
    const allowed = permission === null || merchantCan(role, permission);
    if (allowed) {
      expect(res.text).not.toContain(forbiddenText);
      expect([200, 303, 400, 401, 404]).toContain(res.status);
    } else {
      expect(res.status).toBe(403);
      expect(res.text).toContain(forbiddenText);
    }
  });
});
