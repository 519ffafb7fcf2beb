import { createHash, randomUUID } from 'node:crypto';
import type { Transaction } from '@mm/db';
import { recordDay, saveOperatorRecords, type AccountKey, type DaySummary } from '@mm/db/reconciliation';
import { transition } from '@mm/db/payments';
import { verifyLedger } from '@mm/db/ledger';
import { reconciliationRuns } from '@mm/queues';
import { matchDay } from '@mm/reconciliation';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { TestClient } from '@mm/testing';
import { fixtureQueue, logInAs, newCashin, newMerchant, seedSubsidiaries } from '../test-support/transaction-data.js';

const ACCOUNT: AccountKey = { countryCode: 'CI', operator: 'SIMULATOR' };
const DAY_MS = 86_400_000;

/** A statement CSV as operators export them (header, then one movement a line). */
function statement(lines: string[]): string {
  return `kind,reference,operator_tx_id,amount,currency,status,occurred_at\n${lines.join('\n')}\n`;
}
function line(kind: string, reference: string, amount: number | string, status: string, day: string): string {
  return `${kind},${reference},,${amount},XOF,${status},${day}T10:00:00Z`;
}

describe('/reconciliation: the days, the cases and what approvers do with them', () => {
  let bo: BackofficeFixture;
  let shop: string;
  let runs: ReturnType<typeof fixtureQueue>;
  let viewer: { staff: { id: string; email: string }; client: TestClient };
  let approver: { staff: { id: string; email: string }; client: TestClient };
  beforeAll(async () => {
    bo = await startBackofficeFixture();
    await seedSubsidiaries(bo.db);
    shop = await newMerchant(bo.db, 'Recon Shop');
    runs = fixtureQueue(bo, reconciliationRuns.name);
    viewer = await logInAs(bo, 'viewer');
    approver = await logInAs(bo, 'approver');
  });
  afterAll(async () => {
    await runs.close();
    await bo.stop();
  });

  // Each planted difference gets a business day of its own, so a day's run pairs only what the test put in it.
  let days = 0;
  const newDay = () => new Date(Date.UTC(2026, 8, 1) + ++days * DAY_MS).toISOString().slice(0, 10);

  /** A cash-in collected (SUCCESS) on `date`. */
  async function collected(date: string, amount = 1000): Promise<Transaction> {
    const t = await newCashin(bo.db, { merchantId: shop, amount });
    for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const)
      await bo.db.$transaction((tx) => transition(tx, { transactionId: t.id, to, cause: 'setup' }));
    await bo.db
      .$executeRaw`UPDATE transactions SET created_at = (${date}::date::timestamp AT TIME ZONE 'UTC') + interval '12 hours' WHERE id = ${t.id}::uuid`;
    return t;
  }

  /** The day matched and recorded, as the reconciliation run does after reading the operator. */
  async function reconcile(date: string): Promise<DaySummary> {
    // As read from the operator's list; recordDay adds STATEMENT itself when a statement's records are in the day.
    return recordDay(bo.db, ACCOUNT, date, (tx) => matchDay(tx, ACCOUNT, date), { sources: ['API'] });
  }

  /** A cash-in of 1 000 the operator says was 1 500: an AMOUNT_DIFFERS case of +500 (the operator holds more). */
  async function amountDiffers(): Promise<{ caseId: string; t: Transaction; date: string }> {
    const date = newDay();
    const t = await collected(date);
    await saveOperatorRecords(
      bo.db,
      ACCOUNT,
      [
        {
          kind: 'CASHIN',
          reference: t.providerReference,
          operatorTxId: `OP-${randomUUID()}`,
          amount: 1500,
          currency: 'XOF',
          outcome: 'SUCCESS',
          businessDate: date,
        },
      ],
      'API',
    );
    await reconcile(date);
    const c = await bo.db.reconciliationCase.findFirstOrThrow({ where: { recordKey: t.providerReference } });
    return { caseId: c.id, t, date };
  }

  const caseOf = (id: string) => bo.db.reconciliationCase.findUniqueOrThrow({ where: { id } });
  const auditOf = (id: string) =>
    bo.db.auditEntry.findMany({ where: { targetType: 'reconciliation_case', targetId: id }, orderBy: { id: 'asc' } });
  const journalOf = (transactionId: string) => bo.db.$queryRaw<{ posting: string; kind: string; amount: bigint }[]>`
    SELECT e.posting, a.kind, e.amount FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE e.transaction_id = ${transactionId}::uuid AND e.posting LIKE 'RECONCILIATION_%' ORDER BY e.id`;
  const rowOf = (text: string, attribute: string) =>
    new RegExp(`<tr ${attribute}[^>]*>[\\s\\S]*?</tr>`).exec(text)?.[0] ?? '';
  const queuedRuns = async () =>
    (await runs.queue.getJobs(['waiting', 'delayed', 'prioritized'])).map((j) => ({
      id: j.id,
      data: j.data as unknown,
    }));

  describe('the days reconciled', () => {
    it('every role sees each day with its counts per category and its open cases, newest first', async () => {
      const { date } = await amountDiffers();
      // A second movement of the day the operator has no record of.
      await collected(date, 2500);
      await reconcile(date);
      const page = await viewer.client.get('/reconciliation');
      expect(page.status).toBe(200);
      expect(page.text).toContain('data-nav="reconciliation" aria-current="page"');
      const row = rowOf(page.text, `data-run="CI:SIMULATOR:${date}"`);
      expect(row).toContain(`<td>${date}</td><td>SIMULATOR</td><td>CI</td>`);
      expect(row).toContain('<td class="num" data-category="MATCHED">0</td>');
      expect(row).toMatch(/data-category="AMOUNT_DIFFERS"><strong>1<\/strong><br><span class="muted">500<\/span>/);
      expect(row).toMatch(
        /data-category="MISSING_AT_OPERATOR"><strong>1<\/strong><br><span class="muted">2\u202f500<\/span>/,
      );
      expect(row).toContain('data-open-now="2"');
      expect(row).toContain('2 at the run');
      expect(row).toContain('API');
      expect(row).toContain(
        `href="/reconciliation/cases?state=open&amp;operator=SIMULATOR&amp;country=CI&amp;date=${date}"`,
      );
      // A viewer is not offered the import.
      expect(page.text).not.toContain('href="/reconciliation/import"');
      expect((await approver.client.get('/reconciliation')).text).toContain('href="/reconciliation/import"');
    });

    it('filters by operator and country, refuses a bad filter without a query, and pages 50 days at a time', async () => {
      await bo.db.$executeRaw`
        INSERT INTO reconciliation_runs (country_code, operator, business_date, totals, matched, open_cases)
        SELECT 'SN', 'PAGED', DATE '2025-01-01' + n, '{"MATCHED": {"count": 3, "amount": 300}}'::jsonb, 3, 0 FROM generate_series(0, 54) AS n`;
      const first = await viewer.client.get('/reconciliation?operator=PAGED&country=SN');
      expect(first.status).toBe(200);
      expect(first.text.match(/<tr data-run="SN:PAGED:/g)).toHaveLength(50);
      expect(first.text).toContain('data-run="SN:PAGED:2025-02-24"');
      expect(first.text).not.toContain('data-run="CI:');
      const older = /<a id="older-page" href="([^"]+)">/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
      expect(older).toBeDefined();
      const second = await viewer.client.get(older!);
      expect(second.text.match(/<tr data-run="SN:PAGED:/g)).toHaveLength(5);
      expect(second.text).toContain('data-run="SN:PAGED:2025-01-01"');
      expect(second.text).toContain('No older days.');
      expect((await viewer.client.get('/reconciliation?operator=PAGED&country=CM')).text).toContain('id="no-runs"');
      const bad = await viewer.client.get('/reconciliation?country=Ivory');
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('The country is a two-letter code.');
      expect((await viewer.client.get('/reconciliation?after=damaged')).status).toBe(400);
    });
  });

  describe('the cases', () => {
    it('lists the open cases by default with kind, reference, category, difference and state; filters by state, category and account', async () => {
      const { caseId, t, date } = await amountDiffers();
      const list = await viewer.client.get('/reconciliation/cases');
      expect(list.status).toBe(200);
      const row = rowOf(list.text, `data-case-id="${caseId}"`);
      expect(row).toContain(`<td>${date}</td><td>SIMULATOR</td><td>CI</td><td>CASHIN</td>`);
      expect(row).toContain(`<a href="/reconciliation/cases/${caseId}"><code>${t.providerReference}</code></a>`);
      expect(row).toContain('Amount differs');
      expect(row).toContain('<td class="num">+500 XOF</td>');
      expect(row).toContain('data-state="OPEN"');
      expect(row).toContain(`<a href="/transactions/${t.id}">`);

      expect((await viewer.client.get('/reconciliation/cases?category=MISSING_AT_OPERATOR')).text).not.toContain(
        `data-case-id="${caseId}"`,
      );
      expect(
        (await viewer.client.get('/reconciliation/cases?category=AMOUNT_DIFFERS&operator=SIMULATOR&country=CI')).text,
      ).toContain(`data-case-id="${caseId}"`);
      expect((await viewer.client.get(`/reconciliation/cases?date=${date}`)).text).toContain(
        `data-case-id="${caseId}"`,
      );
      expect((await viewer.client.get('/reconciliation/cases?state=resolved')).text).not.toContain(
        `data-case-id="${caseId}"`,
      );
      expect((await viewer.client.get('/reconciliation/cases?state=all')).text).toContain(`data-case-id="${caseId}"`);
      expect((await viewer.client.get('/reconciliation/cases?state=closed')).status).toBe(400);
      expect((await viewer.client.get('/reconciliation/cases?category=MATCHED')).status).toBe(400);
      expect((await viewer.client.get('/reconciliation/cases?date=2026-02-30')).status).toBe(400);
    });

    it("the detail shows both sides, the difference and the transaction's timeline; a viewer gets no action", async () => {
      const { caseId, t } = await amountDiffers();
      const page = await viewer.client.get(`/reconciliation/cases/${caseId}`);
      expect(page.status).toBe(200);
      const amountRow = rowOf(page.text, 'data-field="amount"');
      expect(amountRow).toContain('<td data-side="ours">1000</td><td data-side="theirs">1500</td>');
      expect(amountRow).toContain('data-differs');
      const reference = rowOf(page.text, 'data-field="reference"');
      expect(reference).toContain(
        `<td data-side="ours">${t.providerReference}</td><td data-side="theirs">${t.providerReference}</td>`,
      );
      expect(reference).not.toContain('data-differs');
      expect(rowOf(page.text, 'data-field="status"')).toContain('<td data-side="ours">SUCCESS</td>');
      expect(page.text).toContain('<dd data-field="difference">+500 XOF');
      expect(page.text).toContain('<dd data-field="state"><span class="badge off" data-state="OPEN">OPEN</span></dd>');
      // The transaction's timeline, as its own page shows it, and a link to that page.
      expect(page.text).toContain('<table id="timeline">');
      expect(page.text).toContain('data-kind="state" data-to="SUCCESS"');
      expect(page.text).toContain(`href="/transactions/${t.id}"`);
      expect(page.text).toContain('id="case-actions-none"');
      expect(page.text).not.toContain('action="/reconciliation/cases/');

      const forApprover = await approver.client.get(`/reconciliation/cases/${caseId}`);
      expect(forApprover.text).toContain(`action="/reconciliation/cases/${caseId}/accept"`);
      expect(forApprover.text).toContain(`action="/reconciliation/cases/${caseId}/write-off"`);
      expect(forApprover.text).toContain(`action="/reconciliation/cases/${caseId}/requery"`);
      expect(forApprover.text).toContain('Posts +500 XOF');

      expect((await viewer.client.get(`/reconciliation/cases/${randomUUID()}`)).status).toBe(404);
      expect((await viewer.client.get('/reconciliation/cases/not-a-case')).status).toBe(404);
    });

    it('a case unknown to us shows the operator side alone and no timeline', async () => {
      const date = newDay();
      const opId = `OP-${randomUUID()}`;
      await saveOperatorRecords(
        bo.db,
        ACCOUNT,
        [
          {
            kind: 'CASHIN',
            reference: null,
            operatorTxId: opId,
            amount: 700,
            currency: 'XOF',
            outcome: 'SUCCESS',
            businessDate: date,
          },
        ],
        'API',
      );
      await reconcile(date);
      const c = await bo.db.reconciliationCase.findFirstOrThrow({ where: { recordKey: `op:${opId}` } });
      expect(c).toMatchObject({ category: 'UNKNOWN_TO_US', transactionId: null });
      const page = await viewer.client.get(`/reconciliation/cases/${c.id}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('no movement in our books');
      expect(rowOf(page.text, 'data-field="operatorTxId"')).toContain(`<td data-side="theirs">${opId}</td>`);
      expect(page.text).toContain('id="no-timeline"');
    });
  });

  describe("accepting the operator's side", () => {
    it('posts the difference through the reconciliation suspense, with one audit row; a second accept changes nothing', async () => {
      const { caseId, t } = await amountDiffers();
      const { client, staff } = approver;
      await client.get(`/reconciliation/cases/${caseId}`);
      const res = await client.post(`/reconciliation/cases/${caseId}/accept`, { to_post: '500' });
      expect(res).toMatchObject({ status: 303, location: `/reconciliation/cases/${caseId}?done=accepted` });

      const c = await caseOf(caseId);
      expect(c).toMatchObject({
        state: 'RESOLVED',
        resolution: 'ACCEPTED',
        postedAmount: 500n,
        writtenOffAmount: 0n,
        resolvedBy: staff.id,
      });
      expect(c.journalIds).toHaveLength(1);
      expect(await journalOf(t.id)).toEqual([
        { posting: 'RECONCILIATION_ACCEPTED', kind: 'OPERATOR_RECEIVABLE', amount: -500n },
        { posting: 'RECONCILIATION_ACCEPTED', kind: 'RECONCILIATION_SUSPENSE', amount: 500n },
      ]);
      const audit = await auditOf(caseId);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        staffId: staff.id,
        actor: staff.email,
        action: 'reconciliation.accept',
        before: { state: 'OPEN', resolution: null, difference: 500, posted_amount: 0, written_off_amount: 0 },
        after: {
          state: 'RESOLVED',
          resolution: 'ACCEPTED',
          posted_amount: 500,
          written_off_amount: 0,
          journal_ids: c.journalIds,
        },
      });
      const ledger = await verifyLedger(bo.db);
      expect(ledger.problems).toEqual([]);
      expect(ledger.ok).toBe(true);

      const page = await client.get(`/reconciliation/cases/${caseId}?done=accepted`);
      expect(page.text).toContain('id="case-notice"');
      expect(page.text).toContain(
        `<dd data-field="resolved_by">Test approver <span class="muted">(${staff.email})</span></dd>`,
      );
      expect(page.text).toContain('data-resolution="ACCEPTED"');
      expect(page.text).not.toContain(`action="/reconciliation/cases/${caseId}/accept"`);

      // A second click (a stale page, a double submit): refused with the case as it is, nothing posted twice.
      const again = await client.post(`/reconciliation/cases/${caseId}/accept`, { to_post: '500' });
      expect(again.status).toBe(409);
      expect(again.text).toContain(
        'Nothing changed: the case is already resolved (ACCEPTED). Nothing was posted again.',
      );
      await client.get(`/reconciliation/cases/${caseId}`);
      expect(
        (
          await client.post(`/reconciliation/cases/${caseId}/write-off`, {
            reason: 'too late for this',
            to_post: '500',
          })
        ).status,
      ).toBe(409);
      expect(await journalOf(t.id)).toHaveLength(2);
      expect(await auditOf(caseId)).toHaveLength(1);
      expect(await caseOf(caseId)).toMatchObject({ resolution: 'ACCEPTED', writtenOffAmount: 0n });
    });

    it('posts only what the page showed: a case changed since, or a form that does not say, posts nothing', async () => {
      const { caseId, t } = await amountDiffers();
      const { client } = approver;
      const page = await client.get(`/reconciliation/cases/${caseId}`);
      expect(page.text).toContain('<input type="hidden" name="to_post" value="500">');
      // Shown +400 (a run read the operator again since): the person agreed to another amount.
      const changed = await client.post(`/reconciliation/cases/${caseId}/accept`, { to_post: '400' });
      expect(changed.status).toBe(409);
      expect(changed.text).toContain(
        'Nothing changed: the case changed since it was shown: accepting it would now post 500, not 400.',
      );
      await client.get(`/reconciliation/cases/${caseId}`);
      expect(
        (
          await client.post(`/reconciliation/cases/${caseId}/write-off`, {
            reason: 'shown another amount',
            to_post: '400',
          })
        ).status,
      ).toBe(409);
      for (const toPost of [null, '', 'five hundred', '1.5']) {
        await client.get(`/reconciliation/cases/${caseId}`);
        const res = await client.post(`/reconciliation/cases/${caseId}/accept`, { to_post: toPost });
        expect(res.status).toBe(400);
        expect(res.text).toContain('this form did not say what it would post');
      }
      expect(await caseOf(caseId)).toMatchObject({ state: 'OPEN', resolution: null, postedAmount: 0n });
      expect(await journalOf(t.id)).toEqual([]);
      expect(await auditOf(caseId)).toEqual([]);
    });

    it('two approvers accepting at once: one posting, one audit row', async () => {
      const { caseId, t } = await amountDiffers();
      const other = await logInAs(bo, 'admin');
      const results = await Promise.all([
        approver.client.post(`/reconciliation/cases/${caseId}/accept`, { to_post: '500' }),
        other.client.post(`/reconciliation/cases/${caseId}/accept`, { to_post: '500' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
      expect(await journalOf(t.id)).toHaveLength(2);
      expect(await auditOf(caseId)).toHaveLength(1);
      expect((await verifyLedger(bo.db)).problems).toEqual([]);
    });
  });

  describe('writing off', () => {
    it('needs a reason of 3 to 255 characters; without one nothing changes', async () => {
      const { caseId, t } = await amountDiffers();
      const { client } = approver;
      for (const reason of [null, '', '   ', 'ab', 'x'.repeat(256)]) {
        await client.get(`/reconciliation/cases/${caseId}`);
        const res = await client.post(`/reconciliation/cases/${caseId}/write-off`, { reason });
        expect(res.status).toBe(400);
        expect(res.text).toContain('A write-off needs a reason of 3 to 255 characters');
      }
      expect(await caseOf(caseId)).toMatchObject({ state: 'OPEN', resolution: null, postedAmount: 0n });
      expect(await journalOf(t.id)).toEqual([]);
      expect(await auditOf(caseId)).toEqual([]);
    });

    it('with a reason: accepted then written off, the reason kept in the case and the audit row', async () => {
      const { caseId, t } = await amountDiffers();
      const { client, staff } = approver;
      await client.get(`/reconciliation/cases/${caseId}`);
      const res = await client.post(`/reconciliation/cases/${caseId}/write-off`, {
        reason: '  operator fee never recoverable  ',
        to_post: '500',
      });
      expect(res).toMatchObject({ status: 303, location: `/reconciliation/cases/${caseId}?done=written_off` });
      expect(await caseOf(caseId)).toMatchObject({
        state: 'RESOLVED',
        resolution: 'WRITTEN_OFF',
        postedAmount: 500n,
        writtenOffAmount: 500n,
        note: 'operator fee never recoverable',
        resolvedBy: staff.id,
      });
      expect(await journalOf(t.id)).toEqual([
        { posting: 'RECONCILIATION_ACCEPTED', kind: 'OPERATOR_RECEIVABLE', amount: -500n },
        { posting: 'RECONCILIATION_ACCEPTED', kind: 'RECONCILIATION_SUSPENSE', amount: 500n },
        { posting: 'RECONCILIATION_WRITTEN_OFF', kind: 'RECONCILIATION_SUSPENSE', amount: -500n },
        { posting: 'RECONCILIATION_WRITTEN_OFF', kind: 'RECONCILIATION_WRITE_OFF', amount: 500n },
      ]);
      const [audit, ...more] = await auditOf(caseId);
      expect(more).toEqual([]);
      expect(audit).toMatchObject({
        action: 'reconciliation.write_off',
        after: { resolution: 'WRITTEN_OFF', written_off_amount: 500, reason: 'operator fee never recoverable' },
      });
      expect((await verifyLedger(bo.db)).problems).toEqual([]);
      expect((await client.get(`/reconciliation/cases/${caseId}`)).text).toContain(
        '<dd data-field="note">operator fee never recoverable</dd>',
      );
    });
  });

  describe('re-querying', () => {
    it("queues a run of the case's account and business day, audited, and changes no money", async () => {
      const { caseId, t, date } = await amountDiffers();
      const before = await queuedRuns();
      const { client, staff } = approver;
      await client.get(`/reconciliation/cases/${caseId}`);
      const res = await client.post(`/reconciliation/cases/${caseId}/requery`);
      expect(res).toMatchObject({ status: 303, location: `/reconciliation/cases/${caseId}?done=requeried` });
      const added = (await queuedRuns()).filter((j) => !before.some((b) => b.id === j.id));
      expect(added).toHaveLength(1);
      expect(added[0]!.data).toEqual({ country_code: 'CI', operator: 'SIMULATOR', date, trigger: 'manual' });
      const [audit, ...more] = await auditOf(caseId);
      expect(more).toEqual([]);
      expect(audit).toMatchObject({
        staffId: staff.id,
        action: 'reconciliation.requery',
        before: { state: 'OPEN', category: 'AMOUNT_DIFFERS', difference: '500' },
        after: {
          queue: 'reconciliation-runs',
          job_id: added[0]!.id,
          country_code: 'CI',
          operator: 'SIMULATOR',
          date,
          trigger: 'manual',
        },
      });
      expect(await caseOf(caseId)).toMatchObject({ state: 'OPEN', postedAmount: 0n });
      expect(await journalOf(t.id)).toEqual([]);
      expect((await client.get(`/reconciliation/cases/${caseId}?done=requeried`)).text).toContain(
        'Queued: a reconciliation run',
      );
      await client.get('/reconciliation');
      expect((await client.post(`/reconciliation/cases/${randomUUID()}/requery`)).status).toBe(404);
    });
  });

  describe('who may act', () => {
    it('a viewer cannot accept, write off, re-query nor import: 403 and nothing changes', async () => {
      const { caseId, t } = await amountDiffers();
      const { client } = viewer;
      const jobs = (await queuedRuns()).length;
      await client.get(`/reconciliation/cases/${caseId}`);
      expect((await client.post(`/reconciliation/cases/${caseId}/accept`)).status).toBe(403);
      expect(
        (await client.post(`/reconciliation/cases/${caseId}/write-off`, { reason: 'not mine to decide' })).status,
      ).toBe(403);
      expect((await client.post(`/reconciliation/cases/${caseId}/requery`)).status).toBe(403);
      expect((await client.get('/reconciliation/import')).status).toBe(403);
      const upload = await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR' }, [
        {
          field: 'statement',
          name: 's.csv',
          content: statement([line('CASHIN', 'viewer-ref', 100, 'SUCCESS', '2026-10-01')]),
        },
      ]);
      expect(upload.status).toBe(403);
      expect(await caseOf(caseId)).toMatchObject({ state: 'OPEN', postedAmount: 0n });
      expect(await journalOf(t.id)).toEqual([]);
      expect(await auditOf(caseId)).toEqual([]);
      expect((await queuedRuns()).length).toBe(jobs);
      expect(await bo.db.operatorRecord.count({ where: { reference: 'viewer-ref' } })).toBe(0);
    });

    it('without the CSRF token an accept is refused and nothing is posted', async () => {
      const { caseId, t } = await amountDiffers();
      expect((await approver.client.post(`/reconciliation/cases/${caseId}/accept`, { _csrf: null })).status).toBe(403);
      expect((await approver.client.post(`/reconciliation/cases/${caseId}/accept`, { _csrf: 'forged' })).status).toBe(
        403,
      );
      expect(await caseOf(caseId)).toMatchObject({ state: 'OPEN' });
      expect(await journalOf(t.id)).toEqual([]);
    });
  });

  describe("importing an operator's statement", () => {
    const imports = () =>
      bo.db.auditEntry.findMany({ where: { action: 'reconciliation.import' }, orderBy: { id: 'asc' } });

    it('shows the form with the operator accounts to approvers', async () => {
      const page = await approver.client.get('/reconciliation/import');
      expect(page.status).toBe(200);
      expect(page.text).toContain('enctype="multipart/form-data"');
      expect(page.text).toContain('<option value="CI:SIMULATOR">CI · SIMULATOR</option>');
      expect(page.text).toContain('name="_csrf"');
    });

    it('refuses a file with bad lines, naming each, and writes nothing', async () => {
      const { client } = approver;
      const before = {
        records: await bo.db.operatorRecord.count(),
        audits: (await imports()).length,
        jobs: (await queuedRuns()).length,
      };
      await client.get('/reconciliation/import');
      const csv = statement([
        line('CASHIN', 'bad-1', 100, 'SUCCESS', '2026-10-02'),
        line('CASHIN', 'bad-2', '12.5', 'SUCCESS', '2026-10-02'),
        line('TELEPORT', 'bad-3', 100, 'SUCCESS', '2026-10-02'),
      ]);
      const res = await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR' }, [
        { field: 'statement', name: 'statement.csv', content: csv },
      ]);
      expect(res.status).toBe(400);
      expect(res.text).toContain('The file was refused: nothing was imported.');
      expect(rowOf(res.text, 'data-line="3"')).toContain('amount &quot;12.5&quot; is not a whole number');
      expect(rowOf(res.text, 'data-line="4"')).toContain('kind &quot;TELEPORT&quot;');
      expect(res.text).not.toContain('data-line="2"');
      expect(await bo.db.operatorRecord.count()).toBe(before.records);
      expect((await imports()).length).toBe(before.audits);
      expect((await queuedRuns()).length).toBe(before.jobs);

      // Not UTF-8, no account, no file: refused the same way.
      await client.get('/reconciliation/import');
      const latin1 = await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR' }, [
        { field: 'statement', name: 's.csv', content: new Uint8Array([0x6b, 0xe9, 0x0a]) },
      ]);
      expect(latin1.status).toBe(400);
      expect(latin1.text).toContain('not UTF-8');
      await client.get('/reconciliation/import');
      expect(
        (
          await client.postMultipart('/reconciliation/import', { account: 'CI:NOPE' }, [
            { field: 'statement', name: 's.csv', content: csv },
          ])
        ).status,
      ).toBe(400);
      await client.get('/reconciliation/import');
      expect((await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR' })).text).toContain(
        'Choose the statement file',
      );
      expect((await imports()).length).toBe(before.audits);
    });

    it('imports a good file: records kept as STATEMENT, one audit row with its SHA-256, a run queued per day', async () => {
      const { client, staff } = approver;
      const jobsBefore = await queuedRuns();
      const csv = statement([
        line('CASHIN', 'good-1', 1000, 'SUCCESSFUL', '2026-10-05'),
        line('REFUND', 'good-2', 400, 'FAILED', '2026-10-05'),
        line('PAYOUT', 'good-3', 2500, 'SUCCESS', '2026-10-06'),
      ]);
      await client.get('/reconciliation/import');
      const res = await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR' }, [
        { field: 'statement', name: 'orange-2026-10.csv', content: csv },
      ]);
      expect(res.status).toBe(200);
      expect(res.text).toContain('Imported <strong data-imported="3">3</strong> records');
      expect(res.text).toContain('<span data-day="2026-10-05">2026-10-05 (2)</span>');
      expect(res.text).toContain('<span data-day="2026-10-06">2026-10-06 (1)</span>');

      const rows = await bo.db.operatorRecord.findMany({
        where: { reference: { in: ['good-1', 'good-2', 'good-3'] } },
        orderBy: { reference: 'asc' },
      });
      expect(
        rows.map((r) => ({
          ref: r.reference,
          kind: r.kind,
          amount: r.amount,
          outcome: r.outcome,
          source: r.source,
          day: r.businessDate.toISOString().slice(0, 10),
          cc: r.countryCode,
          op: r.operator,
        })),
      ).toEqual([
        {
          ref: 'good-1',
          kind: 'CASHIN',
          amount: 1000n,
          outcome: 'SUCCESS',
          source: 'STATEMENT',
          day: '2026-10-05',
          cc: 'CI',
          op: 'SIMULATOR',
        },
        {
          ref: 'good-2',
          kind: 'REFUND',
          amount: 400n,
          outcome: 'FAILED',
          source: 'STATEMENT',
          day: '2026-10-05',
          cc: 'CI',
          op: 'SIMULATOR',
        },
        {
          ref: 'good-3',
          kind: 'PAYOUT',
          amount: 2500n,
          outcome: 'SUCCESS',
          source: 'STATEMENT',
          day: '2026-10-06',
          cc: 'CI',
          op: 'SIMULATOR',
        },
      ]);
      const audit = (await imports()).at(-1);
      expect(audit).toMatchObject({
        staffId: staff.id,
        targetType: 'operator_account',
        targetId: 'CI:SIMULATOR',
        after: {
          file_name: 'orange-2026-10.csv',
          file_sha256: createHash('sha256').update(csv).digest('hex'),
          file_bytes: Buffer.byteLength(csv),
          records: 3,
          rows_written: 3,
          days: [
            { date: '2026-10-05', records: 2 },
            { date: '2026-10-06', records: 1 },
          ],
        },
      });
      const added = (await queuedRuns()).filter((j) => !jobsBefore.some((b) => b.id === j.id)).map((j) => j.data);
      expect(added).toEqual(
        expect.arrayContaining([
          { country_code: 'CI', operator: 'SIMULATOR', date: '2026-10-05', trigger: 'manual' },
          { country_code: 'CI', operator: 'SIMULATOR', date: '2026-10-06', trigger: 'manual' },
        ]),
      );
      expect(added).toHaveLength(2);

      // The same file again replaces the same rows: nothing counted twice.
      await client.get('/reconciliation/import');
      expect(
        (
          await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR' }, [
            { field: 'statement', name: 'again.csv', content: csv },
          ])
        ).status,
      ).toBe(200);
      expect(await bo.db.operatorRecord.count({ where: { reference: { in: ['good-1', 'good-2', 'good-3'] } } })).toBe(
        3,
      );
    });

    it('keeps CSRF protection on the multipart form: without the token, or with another, nothing is read or written', async () => {
      const { client } = approver;
      const csv = statement([line('CASHIN', 'csrf-1', 100, 'SUCCESS', '2026-10-07')]);
      const file = [{ field: 'statement', name: 's.csv', content: csv }];
      await client.get('/reconciliation/import');
      expect(
        (await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR', _csrf: null }, file)).status,
      ).toBe(403);
      expect(
        (await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR', _csrf: 'forged' }, file))
          .status,
      ).toBe(403);
      // Another spelling of the path is not left to the route: refused by the global check.
      expect((await client.postMultipart('/reconciliation/import/', { account: 'CI:SIMULATOR' }, file)).status).toBe(
        403,
      );
      // No other route takes a multipart form: its token is never read, so it is refused.
      const { caseId } = await amountDiffers();
      await client.get(`/reconciliation/cases/${caseId}`);
      expect((await client.postMultipart(`/reconciliation/cases/${caseId}/accept`, {})).status).toBe(403);
      expect(await caseOf(caseId)).toMatchObject({ state: 'OPEN' });
      // Anonymous: 401 before any body is read.
      expect(
        (await bo.client().postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR', _csrf: 'x' }, file))
          .status,
      ).toBe(401);
      expect(await bo.db.operatorRecord.count({ where: { reference: 'csrf-1' } })).toBe(0);
    });

    it('refuses a second file in the form', async () => {
      const { client } = approver;
      const csv = statement([line('CASHIN', 'two-files', 100, 'SUCCESS', '2026-10-08')]);
      await client.get('/reconciliation/import');
      const res = await client.postMultipart('/reconciliation/import', { account: 'CI:SIMULATOR' }, [
        { field: 'statement', name: 'a.csv', content: csv },
        { field: 'statement', name: 'b.csv', content: csv },
      ]);
      expect(res.status).toBe(400);
      expect(await bo.db.operatorRecord.count({ where: { reference: 'two-files' } })).toBe(0);
    });
  });
});
