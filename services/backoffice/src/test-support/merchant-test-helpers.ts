/** Shared by the merchants, keys and subsidiaries suites: logged-in clients and reading a page's issued key. */
import { createApiKey, createMerchant, type IssuedKey } from '@mm/db/merchants';
import type { StaffRole } from '@mm/domain';
import { TEST_PASSWORD, type BackofficeFixture } from './backoffice-fixture.js';
import type { PageResponse, TestClient } from '@mm/testing';

export async function loggedIn(
  bo: BackofficeFixture,
  role: StaffRole,
): Promise<{ staff: { id: string; email: string }; client: TestClient }> {
  const staff = await bo.createStaff(role);
  const client = bo.client();
  const login = await client.logIn(staff.email, TEST_PASSWORD);
  if (login.status !== 303) throw new Error(`login as ${role} failed: ${login.status}`);
  // A page of the logged-in session, so the client holds its CSRF token (the logout form's).
  await client.get('/');
  return { staff, client };
}

/** The api_key and api_secret shown on a creation or rotation page. */
export function issuedKeyOf(page: PageResponse): { apiKey: string; apiSecret: string } {
  const apiKey = /<code id="issued-api-key">([^<]+)<\/code>/.exec(page.text)?.[1];
  const apiSecret = /<code id="issued-api-secret">([^<]+)<\/code>/.exec(page.text)?.[1];
  if (!apiKey || !apiSecret) throw new Error(`no issued key on the page (status ${page.status})`);
  return { apiKey, apiSecret };
}

export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** A merchant with one key, written directly (not through the back-office: no audit row). */
export async function seedMerchant(
  bo: BackofficeFixture,
  name = 'Seeded Shop',
  webhookUrl: string | null = null,
): Promise<{ id: string; key: IssuedKey }> {
  const merchant = await createMerchant(bo.db, { name, webhookUrl });
  return { id: merchant.id, key: await createApiKey(bo.db, bo.box, merchant.id) };
}

/** The audit rows of merchant, key and subsidiary changes (not logins). */
export function changeAudit(bo: BackofficeFixture, where: { action?: string; targetId?: string } = {}) {
  return bo.db.auditEntry.findMany({
    where: {
      ...where,
      OR: [
        { action: { startsWith: 'merchant.' } },
        { action: { startsWith: 'api_key.' } },
        { action: { startsWith: 'subsidiary.' } },
      ],
    },
    orderBy: { id: 'asc' },
  });
}
