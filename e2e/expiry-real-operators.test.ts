import { waitFor } from '@mm/testing';
import { mtnReferenceId } from '@mm/operators';
import type { RunningOperatorMocks } from '@mm/operator-mocks';
import { newOrderId, onceHeard } from './support/contract.js';
import { withOperatorMocks } from './support/operator-mocks.js';
import { startSystem, type System } from './support/system.js';

/**
 * The expiry check of cash-ins through the real operators' contract mocks: what decides "never sent" is what
 * the bridge recorded of the push, not a session id some operators never give (MTN).
 */
let sys: System;
let mocks: RunningOperatorMocks;
const CONFIRMATION_TIMEOUT_S = 2;
beforeAll(async () => {
  // No status polls: the expiry check is the one status query after the push.
  sys = await startSystem({ confirmationTimeoutS: CONFIRMATION_TIMEOUT_S, bridgeEnv: { CASHIN_STATUS_POLL_S: '' } });
  mocks = await withOperatorMocks(sys);
});
afterAll(async () => {
  await mocks.close();
  await sys.stop();
});

const transaction = (id: string) => sys.db.transaction.findUniqueOrThrow({ where: { id } });
const statusIs = (id: string, status: string) =>
  waitFor(async () => ((await transaction(id)).status === status ? transaction(id) : undefined), {
    what: `transaction ${id} ${status}`,
    timeoutMs: 15_000,
  });
const history = async (id: string) =>
  (await sys.db.transactionEvent.findMany({ where: { transactionId: id }, orderBy: { id: 'asc' } })).map(
    (e) => `${e.fromStatus}->${e.toStatus}:${e.cause}`,
  );

describe('an acknowledged MTN cash-in that MTN no longer finds at its expiry', () => {
  it("is EXPIRED, not FAILED as never sent, and MTN's late SUCCESSFUL still credits the merchant", async () => {
    // 06: the customer does not answer (MTN keeps it PENDING).
    const res = await onceHeard(
      () =>
        sys.api('POST', '/api/v1/payments/cashin', {
          merchant_order_id: newOrderId('exp-mtn'),
          amount: 5000,
          customer_msisdn: '+2250512345606',
        }),
      202,
    );
    const id = res.body.data.transaction_id as string;
    const acked = await statusIs(id, 'PENDING');
    // MTN gives no session id of its own: nothing on the row tells an acknowledged push from a lost one.
    expect(acked.providerSessionId).toBeNull();
    // MTN forgets the request: its status query at the expiry answers its own 404.
    mocks.controls.mtnCi.fault('requesttopay-status', {
      status: 404,
      body: { code: 'RESOURCE_NOT_FOUND', message: 'Requested resource was not found.' },
    });
    expect(await statusIs(id, 'EXPIRED')).toMatchObject({ failureCode: null });

    // The customer approves after all: MTN's callback (a hint) and its status credit the EXPIRED cash-in.
    expect(mocks.controls.mtnCi.decide(mtnReferenceId(acked.providerReference), 'SUCCESSFUL')).toBe(true);
    expect(await statusIs(id, 'SUCCESS')).toMatchObject({
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: expect.any(String),
    });
    expect(await history(id)).toEqual([
      'null->CREATED:cashin-accepted',
      'CREATED->INITIATED:operator-request',
      'INITIATED->PENDING:operator-ack',
      'PENDING->EXPIRED:expiry',
      'EXPIRED->SUCCESS:operator-result:status-confirmation',
    ]);
    expect(await sys.db.refund.count({ where: { transactionId: id } })).toBe(0);
  });
});
