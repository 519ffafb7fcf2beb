import { transactionStatusChangedPayload, type TransactionSnapshot } from './webhook-payload.js';

const snapshot: TransactionSnapshot = {
  id: '6f1c2a9e-4b7d-4c3a-8e6f-0b1d2c3e4f50',
  merchantOrderId: 'order-1',
  type: 'CASHIN',
  status: 'SUCCESS',
  amount: 5000,
  currency: 'XOF',
  countryCode: 'CI',
  providerTxId: 'MP1',
  failureCode: null,
  failureReason: null,
  operator: 'SIMULATOR',
};
const at = new Date('2026-03-01T10:00:00.000Z');

describe('transactionStatusChangedPayload', () => {
  it('is the interface payload plus event_id and operator (additive), timestamp last', () => {
    expect(Object.entries(transactionStatusChangedPayload(snapshot, 'e-1', at))).toEqual(
      Object.entries({
        event: 'transaction.status_changed',
        event_id: 'e-1',
        transaction_id: snapshot.id,
        merchant_order_id: 'order-1',
        type: 'CASHIN',
        status: 'SUCCESS',
        amount: 5000,
        currency: 'XOF',
        country_code: 'CI',
        provider_tx_id: 'MP1',
        operator: 'SIMULATOR',
        timestamp: '2026-03-01T10:00:00.000+00:00',
      }),
    );
  });

  it('adds failure_code and failure_reason on FAILED only', () => {
    const failed = transactionStatusChangedPayload(
      {
        ...snapshot,
        status: 'FAILED',
        providerTxId: null,
        failureCode: 'INSUFFICIENT_BALANCE',
        failureReason: '60019',
        operator: 'MTN',
      },
      'e-2',
      at,
    );
    expect(Object.keys(failed)).toEqual([
      'event',
      'event_id',
      'transaction_id',
      'merchant_order_id',
      'type',
      'status',
      'amount',
      'currency',
      'country_code',
      'provider_tx_id',
      'failure_code',
      'failure_reason',
      'operator',
      'timestamp',
    ]);
    expect(failed).toMatchObject({ failure_code: 'INSUFFICIENT_BALANCE', failure_reason: '60019', operator: 'MTN' });
  });
});
