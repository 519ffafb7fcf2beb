import type { Transaction } from '@mm/db';
import {
  customerAction,
  presentCashinResponse,
  presentCashoutResponse,
  presentStatusResponse,
} from './transaction-presenter.js';

const base: Transaction = {
  id: '0b1c3c2e-8a8e-4d55-9a55-0d3c1f1f0001',
  merchantId: '0b1c3c2e-8a8e-4d55-9a55-0d3c1f1f0002',
  merchantOrderId: 'order-1',
  type: 'CASHIN',
  status: 'PENDING',
  amount: 5000n,
  currency: 'XOF',
  countryCode: 'CI',
  msisdn: '+2250707000001',
  motif: null,
  returnUrl: null,
  notifyUrl: null,
  metadata: null,
  requestFingerprint: 'fp',
  providerReference: 'MM-REF-1',
  providerTxId: null,
  providerSessionId: null,
  providerState: null,
  providerTxnStatus: null,
  failureCode: null,
  failureReason: null,
  paymentLinkId: null,
  operator: 'SIMULATOR',
  customerAction: null,
  refundedAmount: 0n,
  refundReservedAmount: 0n,
  requestSignatureHash: null,
  expiresAt: null,
  completedAt: null,
  createdAt: new Date('2026-03-01T10:00:00.000Z'),
  updatedAt: new Date('2026-03-01T10:00:01.000Z'),
};
const cashout: Transaction = { ...base, type: 'CASHOUT', status: 'INITIATED', motif: 'supplier' };

describe('operator and customer_action (additive fields)', () => {
  it('come after the interface fields of the cash-in and status responses; a cash-out response has operator only', () => {
    expect(Object.keys(presentCashinResponse(base, 'https://pay.example/pay/x')).slice(-3)).toEqual([
      'updated_at',
      'operator',
      'customer_action',
    ]);
    expect(Object.keys(presentStatusResponse(base)).slice(-4)).toEqual([
      'completed_at',
      'operator',
      'customer_action',
      'payment_link_id',
    ]);
    expect(Object.keys(presentCashoutResponse(cashout)).slice(-2)).toEqual(['updated_at', 'operator']);
  });

  it('payment_link_id (additive, last) is on the status read only: the link a cash-in was paid through, else null', () => {
    const linkId = '0b1c3c2e-8a8e-4d55-9a55-0d3c1f1f0003';
    expect(presentStatusResponse(base).payment_link_id).toBeNull();
    expect(presentStatusResponse({ ...base, paymentLinkId: linkId }).payment_link_id).toBe(linkId);
    expect(presentCashinResponse({ ...base, paymentLinkId: linkId }, 'u')).not.toHaveProperty('payment_link_id');
    expect(presentCashoutResponse(cashout)).not.toHaveProperty('payment_link_id');
  });

  it('show the operator the payment went through', () => {
    expect(presentCashinResponse(base, 'u').operator).toBe('SIMULATOR');
    expect(presentStatusResponse({ ...base, operator: 'ORANGE' }).operator).toBe('ORANGE');
    expect(presentCashoutResponse({ ...cashout, operator: 'MTN' }).operator).toBe('MTN');
  });

  it.each(['CREATED', 'INITIATED'])('customer_action is null while the push is not acknowledged (%s)', (status) => {
    expect(presentCashinResponse({ ...base, status }, 'u').customer_action).toBeNull();
    // Even if an action were stored already, it is not shown before the acknowledgement moves the cash-in on.
    expect(
      presentStatusResponse({ ...base, status, customerAction: { type: 'REDIRECT', url: 'https://op.example/pay' } })
        .customer_action,
    ).toBeNull();
  });

  it.each(['PENDING', 'SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED'])(
    'customer_action is NONE once acknowledged (%s) when the operator gave none (a USSD push)',
    (status) => {
      expect(presentCashinResponse({ ...base, status }, 'u').customer_action).toEqual({ type: 'NONE' });
      expect(presentStatusResponse({ ...base, status }).customer_action).toEqual({ type: 'NONE' });
    },
  );

  it('customer_action is the stored action once acknowledged, with its own fields only', () => {
    const redirect = { ...base, customerAction: { type: 'REDIRECT', url: 'https://op.example/pay/1', extra: 'x' } };
    expect(presentStatusResponse(redirect).customer_action).toEqual({
      type: 'REDIRECT',
      url: 'https://op.example/pay/1',
    });
    expect(
      presentCashinResponse({ ...base, customerAction: { type: 'OTP', ussd: '#144*82#' } }, 'u').customer_action,
    ).toEqual({ type: 'OTP', ussd: '#144*82#' });
    expect(customerAction({ ...base, customerAction: { type: 'NONE' } })).toEqual({ type: 'NONE' });
  });

  it('customer_action of a cash-out is null in the status response', () => {
    for (const status of ['CREATED', 'AWAITING_APPROVAL', 'INITIATED', 'SUCCESS', 'FAILED']) {
      expect(presentStatusResponse({ ...cashout, status }).customer_action).toBeNull();
    }
    expect(presentCashoutResponse(cashout)).not.toHaveProperty('customer_action');
  });
});
