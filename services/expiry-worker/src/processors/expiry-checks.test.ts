import type { Db } from '@mm/db';
import { createCashin, transition } from '@mm/db/transactions';
import type { OperatorResult } from '@mm/domain';
import { createLogger } from '@mm/observability';
import { OperatorUnavailableError, type OperatorAdapter } from '@mm/operators';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing';
import { expiryChecksHandler } from './expiry-checks.js';
import { oneAdapter } from '@mm/operators/testing';
import { jobAt, noEffects } from '@mm/worker-runtime/testing';

// The adapter interface's fake: the status answers the simulator cannot give on demand.
function operatorAnswering(status: (OperatorResult & { found: boolean }) | Error): OperatorAdapter {
  const fail = async () => { throw new Error('not used'); };
  return {
    name: 'fake', pushUssd: fail, refund: fail, disburse: fail, parseCallback: () => null,
    queryStatus: async () => { if (status instanceof Error) throw status; return status; },
  };
}
const notFound = { found: false, providerState: 'PENDING', providerTxnStatus: null, providerTxId: null, failureReason: null } as const;
const ok = { found: true, providerState: 'OK', providerTxnStatus: '200', providerTxId: 'MP7', failureReason: null } as const;
const lastTry = jobAt(5, 6);

describe('expiry check of a PENDING cash-in', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  beforeAll(async () => { fixture = await createMerchantTestDatabase(); db = fixture.db; });
  afterAll(async () => { await fixture.close(); });

  /** A PENDING cash-in: acknowledged by the operator (a session), or adopted with its outcome unknown (none). */
  async function pending(order: string, sessionId: string | null) {
    const r = await createCashin(db, {
      merchantId: fixture.merchantId, merchantOrderId: order, amount: 1000, currency: 'XOF', countryCode: 'CI', msisdn: '+2250707000055',
      motif: null, returnUrl: null, notifyUrl: null, metadata: null, requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    const id = r.transaction.id;
    await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'INITIATED', cause: 'test' }));
    const moved = await db.$transaction((tx) => transition(tx, {
      transactionId: id, to: 'PENDING', cause: sessionId ? 'operator-ack' : 'push-timeout:outcome-unknown',
      patch: { providerSessionId: sessionId, expiresAt: new Date() },
    }));
    return { id, outboxId: moved!.outbox[0]!.id };
  }
  const check = (adapter: OperatorAdapter, t: { id: string; outboxId: string }) =>
    expiryChecksHandler({ db, adapters: oneAdapter(adapter), afterCommit: noEffects, logger: createLogger('test', 'silent') })(
      { outbox_id: t.outboxId, transaction_id: t.id, kind: 'expiry' }, lastTry);
  const row = (id: string) => db.transaction.findUniqueOrThrow({ where: { id } });

  it('fails OPERATOR_UNAVAILABLE a push whose outcome was unknown and that the operator says it never received', async () => {
    const t = await pending('unknown-not-found', null);
    await check(operatorAnswering(notFound), t);
    expect(await row(t.id)).toMatchObject({ status: 'FAILED', failureCode: 'OPERATOR_UNAVAILABLE' });
    expect((await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'FAILED' } })).cause).toBe('expiry-check:operator-unknown');
  });

  it('credits a push whose outcome was unknown and that the customer confirmed', async () => {
    const t = await pending('unknown-ok', null);
    await check(operatorAnswering(ok), t);
    expect(await row(t.id)).toMatchObject({ status: 'SUCCESS', providerTxId: 'MP7' });
  });

  it('expires a push whose outcome was unknown while the operator stays silent: a late OK can still credit it', async () => {
    const t = await pending('unknown-silent', null);
    await check(operatorAnswering(new OperatorUnavailableError('down')), t);
    expect(await row(t.id)).toMatchObject({ status: 'EXPIRED', failureCode: null });
  });

  it('expires an acknowledged push the operator no longer knows, as before', async () => {
    const t = await pending('acked-not-found', 'SES-1');
    await check(operatorAnswering(notFound), t);
    expect(await row(t.id)).toMatchObject({ status: 'EXPIRED' });
  });
});
