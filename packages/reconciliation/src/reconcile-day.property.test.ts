import fc from 'fast-check';
import type { Db } from '@mm/db';
import { reconciliationSlot, resolveCase } from '@mm/db/reconciliation';
import { completeRefund, createCashin, createRefund, transition } from '@mm/db/payments';
import { verifyLedger } from '@mm/db/ledger';
import type { OperatorRecord, RecordKind } from '@mm/domain';
import type { OperatorRecordsPage, PaymentLookup } from '@mm/operators';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import { reconcileDay } from './reconcile-day.js';

/**
 * The property of issue 21: random days of movements with random differences planted on the operator's
 * side always end with every movement matched or in exactly one case, the late successes resolved by the
 * rules already decided, the ledger verified, a second run giving the same result, and nothing left open
 * once people resolve the cases.
 */
type Ours = 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'REFUNDED';
type Plant = 'none' | 'amount' | 'flip' | 'drop';
interface Movement {
  ours: Ours;
  amount: number;
  plant: Plant;
}
interface Day {
  movements: Movement[];
  unknown: number[];
}

const movement = fc.record({
  ours: fc.constantFrom<Ours>('SUCCESS', 'FAILED', 'EXPIRED', 'REFUNDED'),
  amount: fc.integer({ min: 100, max: 500_000 }),
  plant: fc.constantFrom<Plant>('none', 'none', 'amount', 'flip', 'drop'),
});
const day = fc.record({
  movements: fc.array(movement, { minLength: 1, maxLength: 8 }),
  unknown: fc.array(fc.integer({ min: 100, max: 50_000 }), { maxLength: 2 }),
});

/** An operator whose list of the day is what the test planted, and whose status query agrees with it. */
class PlantedOperator {
  records: OperatorRecord[] = [];
  listRecords(_date: string, cursor: string | null): Promise<OperatorRecordsPage> {
    // Two pages, to go through the cursor.
    const half = Math.ceil(this.records.length / 2);
    return Promise.resolve(
      cursor === null
        ? { records: this.records.slice(0, half), next: 'p2' }
        : { records: this.records.slice(half), next: null },
    );
  }
  queryStatus(lookup: PaymentLookup) {
    const r = this.records.find((x) => x.kind === 'CASHIN' && x.reference === lookup.partnerReference);
    if (!r)
      return Promise.resolve({
        found: false,
        providerState: 'PENDING' as const,
        providerTxnStatus: null,
        providerTxId: null,
        failureReason: null,
      });
    return Promise.resolve(
      r.outcome === 'SUCCESS'
        ? {
            found: true,
            providerState: 'OK' as const,
            providerTxnStatus: '200',
            providerTxId: r.operatorTxId,
            failureReason: null,
          }
        : {
            found: true,
            providerState: 'KO' as const,
            providerTxnStatus: '40001',
            providerTxId: null,
            failureReason: 'refused',
          },
    );
  }
}

describe('reconcileDay: random days with planted differences', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  let seq = 0;
  let dayNo = 0;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase(4);
    ({ db, merchantId } = fixture);
  }, 60_000);
  afterAll(async () => {
    await fixture.close();
  });

  const account = { countryCode: 'CI', operator: 'SIMULATOR' };

  async function cashin(ours: Ours, amount: number, date: string) {
    const order = `recon-${++seq}`;
    const r = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    const id = r.transaction.id;
    const move = (to: 'INITIATED' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'EXPIRED', patch = {}) =>
      db.$transaction((tx) => transition(tx, { transactionId: id, to, cause: 'test', patch }));
    await move('INITIATED');
    await move('PENDING');
    if (ours === 'FAILED') await move('FAILED', { failureCode: 'OPERATOR_UNAVAILABLE' });
    else if (ours === 'EXPIRED') await move('EXPIRED');
    else await move('SUCCESS', { providerTxId: `OP-${order}` });
    let refund: { reference: string; id: string } | null = null;
    if (ours === 'REFUNDED') {
      const created = await createRefund(db, {
        merchantId,
        transactionId: id,
        amount: Math.ceil(amount / 2),
        reason: null,
        idempotencyKey: null,
        requestFingerprint: `rf-${order}`,
      });
      if (created.kind !== 'created') throw new Error('refund not created');
      await db.$transaction((tx) =>
        completeRefund(tx, created.refund.id, { status: 'SUCCESS', providerRefundId: `OPRF-${order}` }),
      );
      refund = { reference: created.refund.providerReference, id: created.refund.id };
      await db.$executeRaw`UPDATE refunds SET created_at = ${date}::date + time '10:00' WHERE id = ${created.refund.id}::uuid`;
    }
    await db.$executeRaw`UPDATE transactions SET created_at = ${date}::date + time '09:00' WHERE id = ${id}::uuid`;
    const t = await db.transaction.findUniqueOrThrow({ where: { id } });
    return { t, refund };
  }

  /** What the operator would honestly say about a movement, then the planted difference. */
  function operatorSide(
    m: Movement,
    reference: string,
    refundReference: string | null,
    order: string,
  ): { records: OperatorRecord[]; expect: string } {
    const collected = m.ours === 'SUCCESS' || m.ours === 'REFUNDED';
    const records: OperatorRecord[] = [];
    const cashin: OperatorRecord = {
      kind: 'CASHIN',
      reference,
      operatorTxId: collected ? `OP-${order}` : null,
      amount: m.amount,
      currency: 'XOF',
      outcome: collected ? 'SUCCESS' : 'FAILED',
    };
    let expect = 'MATCHED';
    switch (m.plant) {
      case 'none':
        break;
      case 'amount':
        if (collected) {
          cashin.amount = m.amount + 1;
          expect = 'AMOUNT_DIFFERS';
        }
        break;
      case 'flip':
        if (collected) {
          cashin.outcome = 'FAILED';
          expect = 'STATUS_DIFFERS';
        } else {
          cashin.outcome = 'SUCCESS';
          cashin.operatorTxId = `OP-LATE-${order}`;
          expect = 'AUTOMATIC';
        }
        break;
      case 'drop':
        expect = collected ? 'MISSING_AT_OPERATOR' : 'MATCHED';
        break;
    }
    if (m.plant !== 'drop') records.push(cashin);
    if (refundReference)
      records.push({
        kind: 'REFUND',
        reference: refundReference,
        operatorTxId: `OPRF-${order}`,
        amount: Math.ceil(m.amount / 2),
        currency: 'XOF',
        outcome: 'SUCCESS',
      });
    return { records, expect };
  }

  async function casesOf(date: string) {
    return db.reconciliationCase.findMany({
      where: { businessDate: new Date(`${date}T00:00:00Z`) },
      orderBy: [{ kind: 'asc' }, { recordKey: 'asc' }],
    });
  }

  it('ends with every movement matched or in exactly one case, the ledger verified, and nothing open once resolved', async () => {
    await fc.assert(
      fc.asyncProperty(day, async (d: Day) => {
        const date = `2026-0${1 + Math.floor(dayNo / 28)}-${String(1 + (dayNo % 28)).padStart(2, '0')}`;
        dayNo += 1;
        const operator = new PlantedOperator();
        const expected = new Map<string, string>();
        for (const m of d.movements) {
          const { t, refund } = await cashin(m.ours, m.amount, date);
          const side = operatorSide(m, t.providerReference, refund?.reference ?? null, t.merchantOrderId);
          operator.records.push(...side.records);
          expected.set(reconciliationSlot('CASHIN', t.providerReference), side.expect);
          if (refund) expected.set(reconciliationSlot('REFUND', refund.reference), 'MATCHED');
        }
        d.unknown.forEach((amount, i) => {
          const reference = `UNKNOWN-${date}-${i}`;
          operator.records.push({
            kind: 'CASHIN',
            reference,
            operatorTxId: `OPX-${date}-${i}`,
            amount,
            currency: 'XOF',
            outcome: 'SUCCESS',
          });
          expected.set(reconciliationSlot('CASHIN', reference), 'UNKNOWN_TO_US');
        });

        const first = await reconcileDay({ db, adapter: operator }, account, date);
        const cases = await casesOf(date);
        // Every case is one movement (the unique key), and every movement is matched or in a case.
        const caseBySlot = new Map(cases.map((c) => [reconciliationSlot(c.kind as RecordKind, c.recordKey), c]));
        expect(caseBySlot.size).toBe(cases.length);
        for (const [slot, want] of expected) {
          const c = caseBySlot.get(slot);
          if (want === 'MATCHED') expect(c).toBeUndefined();
          else if (want === 'AUTOMATIC')
            expect(c).toMatchObject({ state: 'RESOLVED', resolution: 'AUTOMATIC', category: 'STATUS_DIFFERS' });
          else expect(c).toMatchObject({ state: 'OPEN', category: want });
        }
        // A late success after FAILED starts its return to the customer (a refund of the system's, created now,
        // so a movement of today's reconciliation, not of this day's).
        const returns = await db.refund.count({
          where: {
            origin: 'LATE_SUCCESS',
            transaction: {
              createdAt: {
                gte: new Date(`${date}T00:00:00Z`),
                lt: new Date(new Date(`${date}T00:00:00Z`).getTime() + 86_400_000),
              },
            },
          },
        });
        const lateReturns = d.movements.filter((m) => m.ours === 'FAILED' && m.plant === 'flip').length;
        expect(returns).toBe(lateReturns);
        expect(cases.length).toBe([...expected.values()].filter((v) => v !== 'MATCHED').length);
        const open = [...expected.values()].filter((v) => v !== 'MATCHED' && v !== 'AUTOMATIC').length;
        expect(first.open_cases).toBe(open);
        expect(first.by_category.PENDING.count).toBe(0);
        expect(await verifyLedger(db)).toMatchObject({ ok: true, problems: [] });

        // Idempotent: the same records give the same day and the same cases.
        const again = await reconcileDay({ db, adapter: operator }, account, date);
        expect(again).toEqual({ ...first, resolved_automatically: 0 });
        expect((await casesOf(date)).map((c) => [c.id, c.state, c.resolution, c.difference])).toEqual(
          cases.map((c) => [c.id, c.state, c.resolution, c.difference]),
        );

        // People resolve every open case; the ledger still verifies, and the next run opens nothing.
        let n = 0;
        for (const c of cases.filter((x) => x.state === 'OPEN')) {
          const verdict =
            n++ % 2 === 0
              ? { resolution: 'ACCEPTED' as const }
              : { resolution: 'WRITTEN_OFF' as const, reason: 'absorbed' };
          await db.$transaction((tx) => resolveCase(tx, c.id, verdict, null));
        }
        expect(await verifyLedger(db)).toMatchObject({ ok: true, problems: [] });
        const settled = await reconcileDay({ db, adapter: operator }, account, date);
        expect(settled.open_cases).toBe(0);
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
