import type { Db } from '@mm/db';
import { createCashin } from '@mm/db/payments';
import { OperatorUnavailableError, type OperatorAdapter, type PaymentLookup } from '@mm/operators';
import { failingOperator, oneAdapter } from '@mm/operators/testing';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing';
import { operatorRequestsHandler } from './operator-requests.js';
import { noEffects, jobAt } from '@mm/worker-runtime/testing';

const notFound = {
  found: false,
  providerState: 'PENDING' as const,
  providerTxnStatus: null,
  providerTxId: null,
  failureReason: null,
};

/** What the real operators' adapters add to the push: prepare, a customer action, a refusal's cause, a lagging status. */
describe("push processor with the real operators' ways", () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function newCashin(order: string) {
    const r = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CM',
      msisdn: '+237691234501',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
      operator: 'ORANGE',
    });
    if (r.kind !== 'created') throw new Error('not created');
    return { id: r.transaction.id, outboxId: r.outbox[0]!.id };
  }
  const run = (adapter: OperatorAdapter, attemptsMade: number, t: { id: string; outboxId: string }) =>
    operatorRequestsHandler({
      db,
      adapters: oneAdapter(adapter),
      afterCommit: noEffects,
      callbackUrl: (x) => `http://bridge/cb/${x.providerReference}`,
      returnUrl: (x) => `http://pay/${x.id}`,
      confirmationTimeoutMs: 1000,
    })({ outbox_id: t.outboxId, transaction_id: t.id }, jobAt(attemptsMade));

  it("stores the operator's id from prepare before paying, pays with it, and asks prepare once across runs", async () => {
    const t = await newCashin('prepare-once');
    let prepared = 0;
    const paidWith: (string | null | undefined)[] = [];
    const adapter: OperatorAdapter = {
      ...failingOperator(new OperatorUnavailableError('pay timed out')),
      prepare: async () => ({ providerSessionId: `PT-${++prepared}` }),
      pushUssd: async (req) => {
        paidWith.push(req.providerSessionId);
        throw new OperatorUnavailableError('pay timed out');
      },
    };
    await expect(run(adapter, 0, t)).rejects.toThrow('pay timed out');
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).providerSessionId).toBe('PT-1');
    await expect(run(adapter, 1, t)).rejects.toThrow('pay timed out');
    expect(paidWith).toEqual(['PT-1', 'PT-1']);
    expect(prepared).toBe(1);
  });

  it('on the last attempt, looks the payment up with the id prepared in that very run (Orange finds it by its pay token only)', async () => {
    const t = await newCashin('prepare-last-attempt');
    const lookedUp: PaymentLookup[] = [];
    const adapter: OperatorAdapter = {
      ...failingOperator(new OperatorUnavailableError('pay timed out')),
      prepare: async () => ({ providerSessionId: 'PT-LAST' }),
      queryStatus: async (p) => {
        lookedUp.push(p);
        return {
          found: true,
          providerState: 'PENDING',
          providerTxnStatus: 'PENDING',
          providerTxId: null,
          failureReason: null,
        };
      },
    };
    await run(adapter, 3, t);
    expect(lookedUp.map((p) => p.providerSessionId)).toEqual(['PT-LAST']);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({ status: 'PENDING' });
  });

  it('an operator whose lookup may lag (MTN, Wave): "not found" right after an unanswered push leaves it PENDING for the expiry check', async () => {
    const t = await newCashin('lagging-not-found');
    await run(
      {
        ...failingOperator(new OperatorUnavailableError('timeout')),
        statusMayLag: true,
        queryStatus: async () => notFound,
      },
      3,
      t,
    );
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      failureCode: null,
    });
    expect(
      (await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'PENDING' } })).cause,
    ).toBe('push-timeout:outcome-unknown');
  });

  it("keeps the customer's action of a redirect operator, and passes the payment page as return URL", async () => {
    const t = await newCashin('redirect');
    let returnUrl: string | undefined;
    const adapter: OperatorAdapter = {
      ...failingOperator(new Error('unused')),
      pushUssd: async (req) => {
        returnUrl = req.returnUrl;
        return {
          accepted: true,
          providerSessionId: 'cos-1',
          customerAction: { type: 'REDIRECT', url: 'https://pay.wave.com/c/cos-1' },
        };
      },
    };
    await run(adapter, 0, t);
    expect(returnUrl).toBe(`http://pay/${t.id}`);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      providerSessionId: 'cos-1',
      customerAction: { type: 'REDIRECT', url: 'https://pay.wave.com/c/cos-1' },
    });
  });

  it('a push refused at once with its cause is FAILED with it (not a bare OPERATOR_REJECTED)', async () => {
    const t = await newCashin('refused-with-cause');
    const adapter: OperatorAdapter = {
      ...failingOperator(new Error('unused')),
      pushUssd: async () => ({
        accepted: false,
        providerState: 'canceled',
        providerTxnStatus: '60019',
        failureCode: 'INSUFFICIENT_BALANCE',
        failureReason: '60019 :: solde insuffisant',
      }),
    };
    await run(adapter, 0, t);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'FAILED',
      providerState: 'canceled',
      providerTxnStatus: '60019',
      failureCode: 'INSUFFICIENT_BALANCE',
      failureReason: '60019 :: solde insuffisant',
    });
  });
});
