import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OperatorRecord } from '@mm/domain';
import type { OperatorRecordsPage } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { statementOf, today } from '@mm/fake-operator/statement-client';
import { SANDBOX_TOKEN, startHarness, type Harness } from './test-support/harness.js';

async function allRecords(h: Harness): Promise<OperatorRecord[]> {
  const records: OperatorRecord[] = [];
  let cursor: string | null = null;
  do {
    const page: OperatorRecordsPage = await h.adapter.listRecords(today(), cursor);
    records.push(...page.records);
    cursor = page.next;
  } while (cursor !== null);
  return records;
}
/** The adapters' kept-alive connections to the stopped process fail once each (as with a real operator's restart). */
const restarted = async (h: Harness) =>
  waitFor(
    () =>
      h.adapter.listRecords(today(), null).then(
        () => true,
        () => false,
      ),
    { what: 'the restarted simulator' },
  );
const statement = async (h: Harness) =>
  (await statementOf(`${h.sim.url}/sandbox`, today(), { Authorization: `Bearer ${SANDBOX_TOKEN}` })).rows;

describe('simulator: its records across a restart (OPERATOR_RECORDS_DIR)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mm-sim-records-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A day's movements: a cash-in paid and part refunded, one refused, one still waiting, a payout. */
  async function aDay(h: Harness) {
    const ok = h.request('01');
    const rejected = h.request('07');
    const waiting = h.request('06');
    for (const req of [ok, rejected, waiting]) await h.adapter.pushUssd(req);
    await waitFor(async () => (await h.adapter.queryStatus(ok)).providerState === 'OK', { what: 'the payment' });
    const refund = {
      partnerReference: `rf_${ok.partnerReference}`,
      originalPartnerReference: ok.partnerReference,
      amount: 1000,
      currency: 'XOF',
    };
    const refunded = await h.adapter.refund(refund);
    const payout = h.disbursement('01');
    const paid = await h.adapter.disburse(payout);
    return { ok, rejected, waiting, refund, refunded, payout, paid };
  }

  it('started again on the same directory, it still holds the day: its list, its statement, its status reads and its idempotency', async () => {
    const first = await startHarness({ recordsDir: dir });
    const day = await aDay(first);
    const listed = await allRecords(first);
    const stated = await statement(first);
    const okStatus = await first.adapter.queryStatus(day.ok);
    expect(listed).toHaveLength(5);
    await first.close();

    const again = await startHarness({ recordsDir: dir, port: first.sim.port });
    try {
      await restarted(again);
      expect(await allRecords(again)).toEqual(listed);
      expect(await statement(again)).toEqual(stated);
      await expect(again.adapter.queryStatus(day.ok)).resolves.toEqual(okStatus);
      // In flight at the restart: its record stays, its timer does not resume.
      await expect(again.adapter.queryStatus(day.waiting)).resolves.toMatchObject({
        found: true,
        providerState: 'PENDING',
      });
      // Retries after the restart are answered as the first time, without paying again...
      await expect(again.adapter.refund(day.refund)).resolves.toEqual(day.refunded);
      await expect(again.adapter.disburse(day.payout)).resolves.toEqual(day.paid);
      await expect(again.adapter.pushUssd(day.ok)).resolves.toMatchObject({ accepted: true });
      expect(again.sim.pushCount(day.ok.partnerReference)).toBe(0);
      expect(again.sim.refundCount(day.refund.partnerReference)).toBe(0);
      // ...and what was refunded before still counts against the cash-in's amount.
      await expect(
        again.adapter.refund({ ...day.refund, partnerReference: `rf2_${day.ok.partnerReference}`, amount: 600 }),
      ).resolves.toMatchObject({ state: 'FAILED' });
    } finally {
      await again.close();
    }
  });

  it('without the setting a restart forgets the day, as before', async () => {
    const first = await startHarness();
    await aDay(first);
    await first.close();
    const again = await startHarness({ port: first.sim.port });
    try {
      await restarted(again);
      expect(await allRecords(again)).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
