import { randomUUID } from 'node:crypto';
import type { StaffAccount } from '@mm/db/staff';
import { markOperatorAccountDown } from '@mm/db/operator-accounts';
import { createCashin, createCashout, transition, utcDayOf } from '@mm/db/payments';
import type { TransactionStatus } from '@mm/domain';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { PageResponse } from '@mm/testing';
import { logInAs, newMerchant, seedSubsidiaries } from '../test-support/transaction-data.js';
import { homeView } from '../views/home.js';
import { homeBlocksFor, homeReads } from './home.js';

describe('/: the day at a glance', () => {
  let bo: BackofficeFixture;
  let merchantId: string;
  // The service's clock, fixed: the seeded rows are placed in its UTC day, so midnight cannot split the suite.
  const now = Date.now();
  const { start: today } = utcDayOf(new Date(now));
  const day = today.toISOString().slice(0, 10);
  const at = (minutes: number) => new Date(today.getTime() + minutes * 60_000);

  beforeAll(async () => {
    bo = await startBackofficeFixture({}, { now: () => now });
    await seedSubsidiaries(bo.db);
    merchantId = await newMerchant(bo.db, 'Home Shop');
  });
  afterAll(async () => {
    await bo.stop();
  });

  async function cashin(
    countryCode: string,
    operator: string,
    amount: number,
    path: TransactionStatus[],
    createdAt: Date,
  ): Promise<void> {
    const r = await createCashin(bo.db, {
      merchantId,
      merchantOrderId: `home-${randomUUID()}`,
      amount,
      currency: countryCode === 'CM' ? 'XAF' : 'XOF',
      countryCode,
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'fp',
      operator,
    });
    if (r.kind !== 'created') throw new Error('test setup: the cash-in was not created');
    for (const to of path)
      await bo.db.$transaction((tx) => transition(tx, { transactionId: r.transaction.id, to, cause: 'test' }));
    await bo.db.transaction.update({ where: { id: r.transaction.id }, data: { createdAt } });
  }

  async function reconciliationCase(state: 'OPEN' | 'RESOLVED'): Promise<void> {
    await bo.db.reconciliationCase.create({
      data: {
        id: randomUUID(),
        countryCode: 'CI',
        operator: 'MTN',
        kind: 'CASHIN',
        recordKey: `op:${randomUUID()}`,
        businessDate: today,
        category: 'UNKNOWN_TO_US',
        state,
        resolution: state === 'RESOLVED' ? 'WRITTEN_OFF' : null,
        currency: 'XOF',
        difference: 500n,
      },
    });
  }

  const block = (page: PageResponse, id: string) =>
    new RegExp(`<(div|section)[^>]* id="${id}"[\\s\\S]*?</\\1>`).exec(page.text)?.[0] ?? '';
  const countOf = (page: PageResponse, id: string) => new RegExp(`id="${id}" data-count="(\\d+)"`).exec(page.text)?.[1];
  const row = (page: PageResponse, attribute: string, key: string) => {
    const r = new RegExp(`<tr data-${attribute}="${key}">([\\s\\S]*?)</tr>`).exec(page.text)?.[1] ?? '';
    const cell = (name: string) => new RegExp(`<td class="${name}">([\\s\\S]*?)</td>`).exec(r)?.[1];
    return {
      created: cell('created'),
      success: cell('success'),
      failed: cell('failed'),
      expired: cell('expired'),
      collected: cell('collected'),
      rate: cell('rate'),
    };
  };
  const dash = '<span class="muted">—</span>';

  it('with nothing yet: zeros, no table, every block linking to its page', async () => {
    const { client } = await logInAs(bo, 'viewer');
    const page = await client.get('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1 id="home-title">Welcome, Test viewer</h1>');
    expect(page.text).toContain('with the role <span class="badge">viewer</span>');
    expect(page.text).toContain('id="home-volume-empty"');
    expect(page.text).toContain(
      `<a href="/transactions?type=CASHIN&amp;from=${day}&amp;to=${day}" id="home-volume-link">`,
    );
    for (const [id, href] of [
      ['home-cashouts', '/cashouts'],
      ['home-reconciliation', '/reconciliation'],
      ['home-parked-jobs', '/jobs/parked'],
      ['home-operators-down', '/operators'],
    ] as const) {
      expect(countOf(page, id)).toBe('0');
      expect(block(page, id)).toContain(`<a href="${href}">`);
    }
  });

  it("counts today's cash-ins per operator and country, and what waits for a person", async () => {
    await cashin('CI', 'MTN', 1000, ['INITIATED', 'SUCCESS'], at(1));
    await cashin('CI', 'MTN', 2500, ['INITIATED', 'PENDING', 'SUCCESS'], at(60));
    await cashin('CI', 'MTN', 700, ['INITIATED', 'FAILED'], at(61));
    await cashin('CM', 'MTN', 4000, ['INITIATED', 'SUCCESS'], at(62));
    await cashin('CM', 'MTN', 900, ['INITIATED', 'PENDING', 'EXPIRED'], at(63));
    await cashin('CM', 'ORANGE', 800, ['INITIATED'], at(64));
    // Yesterday's: not today's figures.
    await cashin('CI', 'MTN', 9999, ['INITIATED', 'SUCCESS'], new Date(today.getTime() - 1));

    for (let i = 0; i < 2; i++)
      await createCashout(bo.db, {
        merchantId,
        merchantOrderId: `home-co-${randomUUID()}`,
        amount: 100,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250707123401',
        reason: 'fournisseur',
        notifyUrl: null,
        requestFingerprint: 'fp',
        approval: 'required',
      });
    for (const state of ['OPEN', 'OPEN', 'OPEN', 'RESOLVED'] as const) await reconciliationCase(state);
    await bo.db.outbox.create({
      data: { topic: 'operator-requests', payload: {}, parkedAt: new Date(), failedRuns: 3 },
    });
    await bo.db.outbox.create({ data: { topic: 'webhook-deliveries', payload: {}, parkedAt: new Date() } });
    // Done since it was parked: no longer waiting for anyone.
    await bo.db.outbox.create({
      data: { topic: 'operator-requests', payload: {}, parkedAt: new Date(), completedAt: new Date() },
    });
    expect(await markOperatorAccountDown(bo.db, 'SN', 'ORANGE', 'maintenance <b>tonight</b>')).toBe(true);

    const { client } = await logInAs(bo, 'approver');
    const page = await client.get('/');
    expect(page.status).toBe(200);

    expect(row(page, 'operator', 'MTN')).toEqual({
      created: '5',
      success: '3',
      failed: '1',
      expired: '1',
      collected: '<span data-currency="XAF">4\u202f000 XAF</span><br><span data-currency="XOF">3\u202f500 XOF</span>',
      rate: '60.0 %',
    });
    expect(row(page, 'operator', 'ORANGE')).toEqual({
      created: '1',
      success: '0',
      failed: '0',
      expired: '0',
      collected: dash,
      rate: dash,
    });
    expect(row(page, 'country', 'CI')).toMatchObject({ created: '3', success: '2', failed: '1', rate: '66.7 %' });
    expect(row(page, 'country', 'CM')).toMatchObject({
      created: '3',
      success: '1',
      expired: '1',
      collected: '<span data-currency="XAF">4\u202f000 XAF</span>',
      rate: '50.0 %',
    });
    expect(page.text).not.toContain('id="home-volume-empty"');

    expect(countOf(page, 'home-cashouts')).toBe('2');
    expect(countOf(page, 'home-reconciliation')).toBe('3');
    expect(countOf(page, 'home-parked-jobs')).toBe('2');
    expect(countOf(page, 'home-operators-down')).toBe('1');
    const down = block(page, 'home-operators-down');
    expect(down).toContain('<li data-account="SN:ORANGE">SN ORANGE, since <time');
    // The reason is staff text: escaped like everything else.
    expect(down).toContain('maintenance &lt;b&gt;tonight&lt;/b&gt;');
  });

  it('shows a block only to a role that may open its page', async () => {
    const staff = (await bo.db.staffUser.findFirstOrThrow({ where: { role: 'viewer' } })) as StaffAccount;
    const everything = homeBlocksFor('viewer');
    // Every real role may read cash-outs: the role without cashouts:read is the nav's set less its page.
    const withoutCashouts = new Set([...everything].filter((id) => id !== 'cashouts'));
    const data = await homeReads(bo.db, withoutCashouts, new Date(now));
    expect(data.awaitingCashouts).toBeUndefined();
    expect(data.openCases).toBe(3);
    const body = homeView(staff, data).value;
    expect(body).not.toContain('id="home-cashouts"');
    expect(body).not.toContain('href="/cashouts"');
    expect(body).toContain('id="home-reconciliation"');

    // A role unknown to @mm/domain is granted nothing: the welcome line and no block at all.
    const none = await homeReads(bo.db, homeBlocksFor('auditor'), new Date(now));
    expect(none).toEqual({ day });
    const bare = homeView({ ...staff, role: 'auditor' }, none).value;
    expect(bare).toContain('id="home-title"');
    expect(bare).not.toContain('<section');
  });

  it('the header role badge has its own readable colours', async () => {
    const { client } = await logInAs(bo, 'admin');
    const page = await client.get('/');
    expect(page.text).toContain('header .badge{background:#e6ebf1;color:#1d2430}');
    expect(page.text).toContain('id="staff-role">admin</span>');
  });
});
