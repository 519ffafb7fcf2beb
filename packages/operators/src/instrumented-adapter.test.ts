import { Registry } from '@mm/observability';
import { sumBy } from '@mm/testing';
import { instrumentAdapter } from './instrumented-adapter.js';
import { OperatorRefusedError, OperatorUnavailableError, type OperatorAdapter } from './operator-adapter.js';
import { lookup } from './testing/payment-lookup.js';

/** An adapter whose every answer is scripted: the outcome labels are what is under test, not an operator. */
function scripted(): OperatorAdapter {
  let pushes = 0;
  return {
    name: 'scripted',
    pushUssd: async () =>
      ++pushes === 1
        ? { accepted: true, providerSessionId: 's1' }
        : { accepted: false, providerState: 'KO', providerTxnStatus: null },
    queryStatus: async (ref) => {
      if (ref.partnerReference === 'bad') throw new OperatorRefusedError('status', 400, '{}');
      throw new OperatorUnavailableError('timed out');
    },
    refund: async () => ({ state: 'FAILED', reason: 'REFUND_REJECTED' }),
    disburse: async () => {
      throw new Error('bug');
    },
    parseCallback: () => null,
  };
}

it('times each operator call with its operation and outcome, and passes answers and errors through', async () => {
  const registry = new Registry();
  const adapter = instrumentAdapter(scripted(), registry);
  const push = {
    partnerReference: 'r',
    msisdn: '+2250707000001',
    amount: 1,
    currency: 'XOF',
    motif: null,
    callbackUrl: 'http://x',
  };
  expect(await adapter.pushUssd(push)).toEqual({ accepted: true, providerSessionId: 's1' });
  expect(await adapter.pushUssd(push)).toMatchObject({ accepted: false });
  await expect(adapter.queryStatus(lookup('r'))).rejects.toBeInstanceOf(OperatorUnavailableError);
  await expect(adapter.queryStatus(lookup('bad'))).rejects.toBeInstanceOf(OperatorRefusedError);
  expect(
    await adapter.refund({ partnerReference: 'f', originalPartnerReference: 'r', amount: 1, currency: 'XOF' }),
  ).toMatchObject({ state: 'FAILED' });
  await expect(
    adapter.disburse({ partnerReference: 'd', msisdn: '+2250707000001', amount: 1, currency: 'XOF', reason: null }),
  ).rejects.toThrow('bug');
  expect(adapter.name).toBe('scripted');

  const counts = sumBy(
    await registry.metrics(),
    'mm_operator_request_duration_seconds_count',
    (l) => `${l.operation} ${l.outcome}`,
  );
  expect(counts).toEqual({
    'push ok': 1,
    'push refused': 1,
    'status unavailable': 1,
    'status refused': 1,
    'refund refused': 1,
    'disburse error': 1,
  });
});

it('passes a one-time code through, timed as "code", and adds no submitCode to an adapter without one', async () => {
  const registry = new Registry();
  const codes: string[] = [];
  const withCodes = instrumentAdapter(
    {
      ...scripted(),
      submitCode: async (_p, code) => {
        codes.push(code);
      },
    },
    registry,
  );
  await withCodes.submitCode!(lookup('r'), '123456');
  expect(codes).toEqual(['123456']);
  expect(
    sumBy(await registry.metrics(), 'mm_operator_request_duration_seconds_count', (l) => `${l.operation} ${l.outcome}`),
  ).toEqual({ 'code ok': 1 });
  expect(instrumentAdapter(scripted(), new Registry()).submitCode).toBeUndefined();
});

it('times the reconciliation calls as "records" and "record": a record the operator does not have is its no', async () => {
  const registry = new Registry();
  const movement = (reference: string) => ({
    kind: 'CASHIN' as const,
    reference,
    payment: { ...lookup(reference), providerTxId: null },
    amount: 1,
    currency: 'XOF',
  });
  const record = {
    kind: 'CASHIN' as const,
    reference: 'r',
    operatorTxId: 'T1',
    amount: 1,
    currency: 'XOF',
    outcome: 'SUCCESS' as const,
  };
  const adapter = instrumentAdapter(
    {
      ...scripted(),
      listRecords: async () => ({ records: [record], next: null }),
      recordOf: async (m) => (m.reference === 'r' ? record : null),
    },
    registry,
  );
  expect(await adapter.listRecords!('2026-11-27', null)).toEqual({ records: [record], next: null });
  expect(await adapter.recordOf!(movement('r'))).toEqual(record);
  expect(await adapter.recordOf!(movement('gone'))).toBeNull();
  expect(
    sumBy(await registry.metrics(), 'mm_operator_request_duration_seconds_count', (l) => `${l.operation} ${l.outcome}`),
  ).toEqual({ 'records ok': 1, 'record ok': 1, 'record refused': 1 });
  expect(instrumentAdapter(scripted(), new Registry()).recordOf).toBeUndefined();
});
