/**
 * Login throttling over HTTP, under concurrency: the count is taken before the password is checked, so a
 * burst of parallel guesses gets no more password checks than the limits allow. Password checks are
 * counted by the service's own metric, `mm_backoffice_password_verifications_total` (one per scrypt).
 */
import { samplesOf } from '@mm/testing';
import { startBackofficeFixture, TEST_PASSWORD, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { TestClient } from '@mm/testing';

async function metric(bo: BackofficeFixture, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${bo.internalUrl}/metrics`)).text();
  return samplesOf(text, name)
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
const verifications = (bo: BackofficeFixture) => metric(bo, 'mm_backoffice_password_verifications_total');

/** A client that has the login form (session and CSRF token), as seen through the proxy from `ip`. */
async function clientFrom(bo: BackofficeFixture, ip: string): Promise<TestClient> {
  const c = bo.client({ 'x-forwarded-for': ip });
  await c.get('/login');
  return c;
}
const addressOf = (i: number) => `10.${(i >> 8) & 255}.${i & 255}.7`;

describe('login throttling per account, under concurrency (LOGIN_MAX_FAILURES=5, attempts from many addresses)', () => {
  let bo: BackofficeFixture;
  beforeAll(async () => {
    bo = await startBackofficeFixture({ LOGIN_MAX_FAILURES: '5', TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await bo.stop();
  });
  const audit = (action: string, actor: string) =>
    bo.db.auditEntry.findMany({ where: { action, actor }, orderBy: { id: 'asc' } });

  it('200 concurrent wrong passwords: at most 5 password checks, and the right password is then refused, unchecked, while locked', async () => {
    const staff = await bo.createStaff('admin', 'target@example.test');
    const clients = await Promise.all(Array.from({ length: 200 }, (_, i) => clientFrom(bo, addressOf(i))));
    const before = await verifications(bo);

    const answers = await Promise.all(
      clients.map((c, i) => c.post('/login', { email: 'target@example.test', password: `guess-${i}` })),
    );
    expect(answers.every((a) => a.status === 401)).toBe(true);
    expect(await verifications(bo)).toBe(before + 5);
    expect(await metric(bo, 'mm_backoffice_login_attempts_total', { outcome: 'locked' })).toBe(195);

    const owner = await clientFrom(bo, '10.99.99.99');
    const whileLocked = await owner.post('/login', { email: 'target@example.test', password: TEST_PASSWORD });
    expect(whileLocked.status).toBe(401);
    expect((await owner.get('/')).status).toBe(303);
    expect(await verifications(bo)).toBe(before + 5);

    // Every checked attempt has its row; the refusals without a check are audited at the 1st, 10th, 100th.
    const failed = await audit('login_failed', 'target@example.test');
    expect(failed.map((r) => (r.after as { failures: number }).failures).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(
      failed.every((r) => r.staffId === staff.id && (r.after as { reason: string }).reason === 'wrong_password'),
    ).toBe(true);
    const locked = await audit('login_locked', 'target@example.test');
    expect(locked.map((r) => (r.after as { refused: number }).refused).sort((a, b) => a - b)).toEqual([1, 10, 100]);
    expect(locked.every((r) => r.staffId === staff.id)).toBe(true);
  });

  it('an unknown email costs the same: one password check per admitted attempt, locked after as many, the same answers', async () => {
    await bo.createStaff('viewer', 'known@example.test');
    for (const email of ['known@example.test', 'ghost@example.test']) {
      const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => clientFrom(bo, addressOf(1000 + i))));
      const before = await verifications(bo);
      const answers = await Promise.all(clients.map((c) => c.post('/login', { email, password: 'wrong password' })));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(401));
      expect(await verifications(bo)).toBe(before + 5);
    }
  });
});

describe('login throttling per client address (TRUST_PROXY=true, LOGIN_MAX_ATTEMPTS_PER_IP=4)', () => {
  let bo: BackofficeFixture;
  beforeAll(async () => {
    bo = await startBackofficeFixture({
      TRUST_PROXY: 'true',
      LOGIN_MAX_ATTEMPTS_PER_IP: '4',
      LOGIN_IP_WINDOW_S: '600',
    });
  });
  afterAll(async () => {
    await bo.stop();
  });

  it('30 concurrent attempts from one address on 30 emails: at most 4 password checks; then even the right password from there is refused (429), not from elsewhere', async () => {
    await bo.createStaff('approver', 'staff.member@example.test');
    const attacker = await clientFrom(bo, '203.0.113.50');
    const before = await verifications(bo);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        attacker.post('/login', { email: `person${i}@example.test`, password: 'Winter2026!' }),
      ),
    );
    expect(await verifications(bo)).toBe(before + 4);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(4);
    const throttled = answers.filter((a) => a.status === 429);
    expect(throttled).toHaveLength(26);
    expect(Number(throttled[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled[0]!.text).toContain('Too many login attempts from your network address');

    const sameAddress = await attacker.post('/login', { email: 'staff.member@example.test', password: TEST_PASSWORD });
    expect(sameAddress.status).toBe(429);
    expect(await verifications(bo)).toBe(before + 4);
    const elsewhere = await clientFrom(bo, '198.51.100.77');
    expect(
      (await elsewhere.post('/login', { email: 'staff.member@example.test', password: TEST_PASSWORD })).status,
    ).toBe(303);

    const rows = await bo.db.auditEntry.findMany({
      where: { action: 'login_throttled', ip: '203.0.113.50' },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => (r.after as { refused: number }).refused).sort((a, b) => a - b)).toEqual([1, 10]);
  });
});

describe('login throttling per client address without TRUST_PROXY: X-Forwarded-For is not believed', () => {
  let bo: BackofficeFixture;
  beforeAll(async () => {
    bo = await startBackofficeFixture({ LOGIN_MAX_ATTEMPTS_PER_IP: '3' });
  });
  afterAll(async () => {
    await bo.stop();
  });

  it('a fresh X-Forwarded-For per attempt does not escape the limit of the real address', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const c = await clientFrom(bo, `192.0.2.${i + 1}`);
      statuses.push((await c.post('/login', { email: `spoof${i}@example.test`, password: 'x' })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});
