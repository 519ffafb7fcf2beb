import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import { recordDay } from '../../reconciliation/index.js';
import { applyOperatorResult } from './apply-operator-result.js';
import { createCashin } from '../create-cashin.js';
import { settleOperatorResult } from './settle-operator-result.js';
import { transition } from './transition.js';

let fixture: MerchantTestDatabase;
beforeAll(async () => {
  fixture = await createMerchantTestDatabase();
});
afterAll(async () => {
  await fixture.close();
});

let seq = 0;
async function cashin(...through: ('INITIATED' | 'PENDING' | 'FAILED')[]) {
  const r = await createCashin(fixture.db, {
    merchantId: fixture.merchantId,
    merchantOrderId: `reported-${++seq}`,
    amount: 5000,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000055',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (r.kind !== 'created') throw new Error('not created');
  for (const to of through)
    await fixture.db.$transaction((tx) => transition(tx, { transactionId: r.transaction.id, to, cause: 'test' }));
  return r.transaction;
}
const paid = (amount: number, currency = 'XOF') => ({
  providerState: 'OK' as const,
  providerTxnStatus: '200',
  providerTxId: 'W-T1',
  failureReason: null,
  reported: { amount, currency },
});
const row = (id: string) => fixture.db.transaction.findUniqueOrThrow({ where: { id } });
const cases = (transactionId: string) => fixture.db.reconciliationCase.findMany({ where: { transactionId } });

describe('a confirmed payment that names what the operator moved', () => {
  it("of the cash-in's own amount and currency is applied as before", async () => {
    const t = await cashin('INITIATED', 'PENDING');
    expect(
      await fixture.db.$transaction((tx) => applyOperatorResult(tx, t.id, paid(5000), 'test-callback')),
    ).toMatchObject({ from: 'PENDING' });
    expect(await row(t.id)).toMatchObject({ status: 'SUCCESS', providerTxId: 'W-T1' });
    expect(await cases(t.id)).toEqual([]);
  });

  it.each([
    ['another amount', 1000, 'XOF'],
    ['another currency', 5000, 'XAF'],
  ])(
    "of %s moves nothing and opens one AMOUNT_DIFFERS case, which the day's run keeps as its own",
    async (_what, amount, currency) => {
      const t = await cashin('INITIATED', 'PENDING');
      const before = await row(t.id);
      expect(
        await fixture.db.$transaction((tx) => settleOperatorResult(tx, t.id, paid(amount, currency), 'test-callback')),
      ).toEqual({ outbox: [], held: null, moved: false, amountDiffers: true });
      // The same word again (a status poll, Wave's repeat): still one case.
      expect(
        await fixture.db.$transaction((tx) => applyOperatorResult(tx, t.id, paid(amount, currency), 'test-poll')),
      ).toBeNull();
      expect(await row(t.id)).toEqual(before);
      const [opened, ...more] = await cases(t.id);
      expect(more).toEqual([]);
      expect(opened).toMatchObject({
        kind: 'CASHIN',
        recordKey: t.providerReference,
        category: 'AMOUNT_DIFFERS',
        state: 'OPEN',
        operator: t.operator,
        countryCode: 'CI',
        difference: BigInt(amount),
        currency: 'XOF',
      });
      // The day's run of that movement (our side still PENDING) finds the case open and leaves it so.
      const pair = {
        kind: 'CASHIN' as const,
        key: t.providerReference,
        ours: null,
        theirs: null,
        category: 'PENDING' as const,
      };
      await recordDay(
        fixture.db,
        { countryCode: 'CI', operator: t.operator },
        t.createdAt.toISOString().slice(0, 10),
        [pair],
        { sources: [] },
      );
      expect(await cases(t.id)).toEqual([
        expect.objectContaining({ id: opened!.id, state: 'OPEN', category: 'AMOUNT_DIFFERS' }),
      ]);
    },
  );

  it('of another amount for a FAILED cash-in holds nothing in suspense and returns nothing: a case for a person', async () => {
    const t = await cashin('INITIATED', 'FAILED');
    expect(
      await fixture.db.$transaction((tx) => settleOperatorResult(tx, t.id, paid(1000), 'test-callback')),
    ).toMatchObject({ moved: false, held: null, amountDiffers: true });
    expect(await fixture.db.refund.count({ where: { transactionId: t.id } })).toBe(0);
    expect(await cases(t.id)).toEqual([
      expect.objectContaining({ category: 'STATUS_DIFFERS', state: 'OPEN', difference: 1000n }),
    ]);
    // Our own amount confirmed late: the return of decisions 13, as before.
    expect(
      await fixture.db.$transaction((tx) => settleOperatorResult(tx, t.id, paid(5000), 'test-callback')),
    ).toMatchObject({
      moved: false,
      held: expect.objectContaining({ refund: expect.objectContaining({ amount: 5000n }) }),
    });
  });
});
