import { aroundCalls, type OperatorCall } from './around-calls.js';
import type { OperatorAdapter } from './operator-adapter.js';
import { failingOperator } from './testing/failing-operator.js';
import { lookup } from './testing/payment-lookup.js';

const request = { ...lookup('MM1'), motif: null, callbackUrl: 'http://cb' };

it('passes every call to the operator through `around` with its name, and keeps the optional calls and flags', async () => {
  const seen: OperatorCall[] = [];
  const adapter: OperatorAdapter = {
    ...failingOperator(new Error('answered')),
    statusMayLag: true,
    prepare: async () => {
      throw new Error('answered');
    },
    submitCode: async () => {
      throw new Error('answered');
    },
    listRecords: async () => {
      throw new Error('answered');
    },
    recordOf: async () => {
      throw new Error('answered');
    },
  };
  const wrapped = aroundCalls(adapter, (operation, call) => {
    seen.push(operation);
    return call();
  });
  const calls = [
    () => wrapped.pushUssd(request),
    () => wrapped.prepare!(request),
    () => wrapped.submitCode!(lookup('MM1'), '1234'),
    () => wrapped.queryStatus(lookup('MM1')),
    () => wrapped.refund({ partnerReference: 'RF1', originalPartnerReference: 'MM1', amount: 1, currency: 'XOF' }),
    () =>
      wrapped.disburse({ partnerReference: 'CO1', msisdn: '+2250707000001', amount: 1, currency: 'XOF', reason: null }),
    () => wrapped.listRecords!('2026-11-27', null),
    () =>
      wrapped.recordOf!({
        kind: 'CASHIN',
        reference: 'MM1',
        payment: { ...lookup('MM1'), providerTxId: null },
        amount: 1,
        currency: 'XOF',
      }),
  ];
  for (const call of calls) await expect(call()).rejects.toThrow('answered');
  expect(seen).toEqual(['push', 'prepare', 'code', 'status', 'refund', 'disburse', 'records', 'record']);
  expect(wrapped.statusMayLag).toBe(true);
});

it('adds no optional call the adapter does not have (the bridge asks prepare, the reconciliation listRecords or recordOf, only of operators that have them)', () => {
  const wrapped = aroundCalls(failingOperator(new Error('x')), (_operation, call) => call());
  expect(wrapped.prepare).toBeUndefined();
  expect(wrapped.submitCode).toBeUndefined();
  expect(wrapped.listRecords).toBeUndefined();
  expect(wrapped.recordOf).toBeUndefined();
  expect(wrapped.statusMayLag).toBeUndefined();
});
