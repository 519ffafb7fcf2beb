import { Writable } from 'node:stream';
import { createCashin, transition, type Db } from '@mm/db';
import { createLogger } from '@mm/observability';
import type { AfterCommit, OperatorResultJob } from '@mm/queues';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing';
import { applyOperatorResultProcessor } from './apply-operator-result.js';

const noEffects = { run: async () => undefined } as unknown as AfterCommit;

describe('operator result for a cash-in that is already final', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('test', 'info', new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } }));

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function failedCashin(order: string, failureCode: string) {
    const r = await createCashin(db, {
      merchantId, merchantOrderId: order, amount: 1000, currency: 'XOF', countryCode: 'CI', msisdn: '+2250707000055',
      motif: null, returnUrl: null, notifyUrl: null, metadata: null, requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    await db.$transaction((tx) => transition(tx, { transactionId: r.transaction.id, to: 'FAILED', cause: 'test', patch: { failureCode } }));
    return r.transaction;
  }
  const result = (reference: string, state: OperatorResultJob['provider_state']): OperatorResultJob => ({
    provider_reference: reference, provider_state: state, provider_txn_status: state === 'OK' ? '200' : null,
    provider_tx_id: state === 'OK' ? 'MP9' : null, provider_session_id: null, failure_reason: null, source: 'callback',
  });

  it('an OK for a FAILED cash-in changes nothing, is logged as an error to reconcile and counted', async () => {
    const t = await failedCashin('captured-but-failed', 'OPERATOR_UNAVAILABLE');
    let counted = 0;
    await applyOperatorResultProcessor({ db, afterCommit: noEffects, logger, onCapturedButFailed: () => { counted++; } })(result(t.providerReference, 'OK'));
    expect(counted).toBe(1);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({ status: 'FAILED', providerTxId: null });
    expect(lines).toContainEqual(expect.objectContaining({
      level: 50, transaction_id: t.id, providerReference: t.providerReference, failureCode: 'OPERATOR_UNAVAILABLE',
      msg: 'operator confirmed a payment that is FAILED here: reconcile by hand',
    }));
  });

  it('a duplicate cancel of a FAILED cash-in is just a duplicate: no error', async () => {
    const t = await failedCashin('cancel-twice', 'CUSTOMER_DID_NOT_VALIDATE');
    lines.length = 0;
    let counted = 0;
    await applyOperatorResultProcessor({ db, afterCommit: noEffects, logger, onCapturedButFailed: () => { counted++; } })(result(t.providerReference, 'canceled'));
    expect(lines.filter((l) => l.level === 50)).toEqual([]);
    expect(counted).toBe(0);
  });
});
