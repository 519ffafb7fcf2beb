import type { ExportedTransaction } from '@mm/db/payments';
import { maskMsisdn } from '@mm/domain';
import { EXPORT_COLUMNS, presentExportRow } from '@mm/collections';
import { presentStatusResponse } from './transaction-presenter.js';

const base: ExportedTransaction = {
  id: '0b1c3c2e-8a8e-4d55-9a55-0d3c1f1f0001',
  merchantOrderId: 'order-1',
  type: 'CASHIN',
  status: 'FAILED',
  amount: 5000n,
  currency: 'XOF',
  countryCode: 'CI',
  msisdn: '+2250707000002',
  providerReference: 'MM-REF-1',
  providerTxId: 'OP-1',
  providerSessionId: 'S-1',
  providerState: 'canceled',
  providerTxnStatus: '54321',
  failureCode: 'INSUFFICIENT_BALANCE',
  failureReason: '60019',
  refundedAmount: 0n,
  completedAt: new Date('2026-03-01T10:00:05.123Z'),
  createdAt: new Date('2026-03-01T10:00:00.000Z'),
  updatedAt: new Date('2026-03-01T10:00:05.123Z'),
  operator: 'SIMULATOR',
  paymentLinkId: '0b1c3c2e-8a8e-4d55-9a55-0d3c1f1f0009',
};

describe('presentExportRow', () => {
  it('is the status response plus the masked number, failure details, refunded amount, timestamps and operator', () => {
    expect(presentExportRow(base)).toEqual({
      transaction_id: base.id,
      merchant_order_id: 'order-1',
      type: 'CASHIN',
      status: 'FAILED',
      amount: 5000,
      currency: 'XOF',
      country_code: 'CI',
      payment_method: 'USSD_PUSH',
      provider_reference: 'MM-REF-1',
      provider_tx_id: 'OP-1',
      provider_session_id: 'S-1',
      provider_state: 'canceled',
      provider_txn_status: '54321',
      failure_code: 'INSUFFICIENT_BALANCE',
      failure_reason: '60019',
      refunded_amount: 0,
      completed_at: '2026-03-01T10:00:05.123Z',
      msisdn: '+22507******02',
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:05.123Z',
      operator: 'SIMULATOR',
      payment_link_id: '0b1c3c2e-8a8e-4d55-9a55-0d3c1f1f0009',
    });
  });

  it.each([
    ['a failed one', base],
    [
      'an open one',
      {
        ...base,
        status: 'PENDING',
        providerState: null,
        providerTxId: null,
        providerTxnStatus: null,
        failureCode: null,
        failureReason: null,
        completedAt: null,
      },
    ],
    [
      'a refunded one',
      {
        ...base,
        status: 'REVERSED',
        providerState: 'OK',
        refundedAmount: 5000n,
        failureCode: null,
        failureReason: null,
      },
    ],
    [
      'a cash-out (paid by wallet transfer, not a push)',
      { ...base, type: 'CASHOUT', status: 'SUCCESS', providerState: null, failureCode: null, failureReason: null },
    ],
    ['one through another operator', { ...base, operator: 'ORANGE' }],
  ])(
    'is, for %s, exactly the status response without customer_action, plus msisdn, created_at and updated_at',
    (_what, t) => {
      const { msisdn, created_at, updated_at, ...rest } = presentExportRow(t);
      const { customer_action, ...status } = presentStatusResponse({ ...t, customerAction: null });
      expect(customer_action === null || customer_action.type === 'NONE').toBe(true);
      expect(rest).toEqual(status);
      expect({ msisdn, created_at, updated_at }).toEqual({
        msisdn: maskMsisdn(t.msisdn),
        created_at: t.createdAt.toISOString(),
        updated_at: t.updatedAt.toISOString(),
      });
    },
  );

  it('has its keys in the order of the CSV columns, and no other', () => {
    expect(Object.keys(presentExportRow(base))).toEqual([...EXPORT_COLUMNS]);
  });

  it('never shows the full customer number', () => {
    expect(JSON.stringify(presentExportRow(base))).not.toContain('0707000002');
  });

  it('shows an open transaction as PENDING at the operator with nulls where nothing is known yet', () => {
    const open = presentExportRow({
      ...base,
      status: 'CREATED',
      providerState: null,
      providerTxId: null,
      providerSessionId: null,
      providerTxnStatus: null,
      failureCode: null,
      failureReason: null,
      completedAt: null,
      refundedAmount: 0n,
    });
    expect(open).toMatchObject({
      status: 'CREATED',
      provider_state: 'PENDING',
      provider_tx_id: null,
      completed_at: null,
      failure_code: null,
      refunded_amount: 0,
    });
  });
});
