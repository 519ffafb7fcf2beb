import { Registry } from '@mm/observability';
import { sumBy } from '@mm/testing';
import { OperatorRefusedError, OperatorUnavailableError, type OperatorAdapter } from '../operator-adapter.js';
import { lookup } from '../testing/payment-lookup.js';
import { OperatorBreaker, probeLookup, type BreakerStore } from './operator-breaker.js';

const CI_MTN = { countryCode: 'CI', operator: 'MTN' };

/** operator_accounts as the breaker's store sees it: the down reason of each account (null: up). */
function memoryStore(): BreakerStore & { reasons: Map<string, string | null>; writes: string[] } {
  const reasons = new Map<string, string | null>([
    ['CI:MTN', null],
    ['SN:WAVE', null],
  ]);
  const writes: string[] = [];
  const isBreakers = (r: string | null | undefined) => !!r && r.startsWith('automatic:');
  return {
    reasons,
    writes,
    markDown: async (k, n) => {
      const id = `${k.countryCode}:${k.operator}`;
      if (reasons.get(id) !== null) return false;
      reasons.set(id, `automatic: ${n} consecutive unreachable answers`);
      writes.push(`down ${id}`);
      return true;
    },
    markUp: async (k) => {
      const id = `${k.countryCode}:${k.operator}`;
      if (!isBreakers(reasons.get(id))) return false;
      reasons.set(id, null);
      writes.push(`up ${id}`);
      return true;
    },
    downByBreaker: async () =>
      [...reasons]
        .filter(([, r]) => isBreakers(r))
        .map(([id]) => {
          const [countryCode, operator] = id.split(':') as [string, string];
          return { countryCode, operator };
        }),
  };
}

/** An operator that answers or not, as the test says. */
function switchable() {
  const state = { reachable: false, statusCalls: 0 };
  const adapter: OperatorAdapter = {
    name: 'switchable',
    pushUssd: async () => {
      throw new OperatorUnavailableError('timed out');
    },
    queryStatus: async () => {
      state.statusCalls++;
      if (!state.reachable) throw new OperatorUnavailableError('timed out');
      return {
        found: false,
        providerState: 'PENDING',
        providerTxnStatus: null,
        providerTxId: null,
        failureReason: null,
      };
    },
    refund: async () => {
      throw new OperatorRefusedError('refund', 400, 'bad');
    },
    disburse: async () => {
      throw new Error('a bug of ours');
    },
    parseCallback: () => null,
  };
  return { state, adapter };
}

function setup(threshold = 3) {
  let now = 0;
  const store = memoryStore();
  const operator = switchable();
  const registry = new Registry();
  const breaker = new OperatorBreaker({
    threshold,
    probeIntervalMs: 30_000,
    store,
    registry,
    now: () => now,
    probe: async (key) => {
      await wrapped.queryStatus(probeLookup(key, () => 'X')).catch(() => undefined);
    },
  });
  const wrapped = breaker.wrap(operator.adapter, CI_MTN);
  const fail = async (n: number) => {
    for (let i = 0; i < n; i++) await wrapped.queryStatus(lookup('r')).catch(() => undefined);
  };
  return {
    breaker,
    store,
    operator,
    registry,
    wrapped,
    fail,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const breakerState = async (registry: Registry) =>
  sumBy(await registry.metrics(), 'mm_operator_breaker_state', (l) => l.account!);

describe('OperatorBreaker', () => {
  it('marks the account down at the threshold of unreachable answers in a row, once, with the metrics; errors pass through unchanged', async () => {
    const { store, registry, wrapped, fail } = setup(3);
    await fail(2);
    expect(store.reasons.get('CI:MTN')).toBeNull();
    await expect(wrapped.queryStatus(lookup('r'))).rejects.toBeInstanceOf(OperatorUnavailableError);
    expect(store.reasons.get('CI:MTN')).toBe('automatic: 3 consecutive unreachable answers');
    await fail(5);
    expect(store.writes).toEqual(['down CI:MTN']);
    expect(await breakerState(registry)).toEqual({ 'CI:MTN': 1 });
    expect(sumBy(await registry.metrics(), 'mm_operator_breaker_mark_downs_total', (l) => l.account!)).toEqual({
      'CI:MTN': 1,
    });
  });

  it('an answer (a result or a refusal) resets the count; an error of ours neither counts nor resets', async () => {
    const { store, operator, wrapped, fail } = setup(3);
    await fail(2);
    operator.state.reachable = true;
    await wrapped.queryStatus(lookup('r'));
    operator.state.reachable = false;
    await fail(2);
    await expect(
      wrapped.refund({ partnerReference: 'f', originalPartnerReference: 'r', amount: 1, currency: 'XOF' }),
    ).rejects.toBeInstanceOf(OperatorRefusedError);
    await fail(2);
    expect(store.reasons.get('CI:MTN')).toBeNull();
    await expect(
      wrapped.disburse({ partnerReference: 'd', msisdn: '+2250707000001', amount: 1, currency: 'XOF', reason: null }),
    ).rejects.toThrow('a bug of ours');
    await fail(1);
    expect(store.reasons.get('CI:MTN')).toBe('automatic: 3 consecutive unreachable answers');
  });

  it('probes every interval once open, and marks the account up at the first answer', async () => {
    const { breaker, store, operator, registry, fail, advance } = setup(3);
    await fail(3);
    const calls = operator.state.statusCalls;
    advance(29_999);
    await breaker.tick();
    expect(operator.state.statusCalls).toBe(calls);
    advance(1);
    await breaker.tick();
    await breaker.tick();
    expect(operator.state.statusCalls).toBe(calls + 1);
    expect(store.reasons.get('CI:MTN')).toMatch(/^automatic:/);

    advance(30_000);
    operator.state.reachable = true;
    await breaker.tick();
    expect(operator.state.statusCalls).toBe(calls + 2);
    expect(store.reasons.get('CI:MTN')).toBeNull();
    expect(breaker.isOpen(CI_MTN)).toBe(false);
    expect(await breakerState(registry)).toEqual({ 'CI:MTN': 0 });
    expect(store.writes).toEqual(['down CI:MTN', 'up CI:MTN']);
  });

  it('never lifts a staff mark-down: the probe is answered, the account stays down with its reason', async () => {
    const { breaker, store, operator, wrapped, fail, advance } = setup(3);
    store.reasons.set('CI:MTN', 'maintenance window until 14:00');
    await fail(3);
    expect(store.reasons.get('CI:MTN')).toBe('maintenance window until 14:00');
    expect(breaker.isOpen(CI_MTN)).toBe(true);
    // The operator answers (a call while open): the breaker asks to lift it, the store refuses a staff reason.
    operator.state.reachable = true;
    await wrapped.queryStatus(lookup('r'));
    expect(breaker.isOpen(CI_MTN)).toBe(false);
    advance(30_000);
    await breaker.tick();
    expect(store.reasons.get('CI:MTN')).toBe('maintenance window until 14:00');
    expect(store.writes).toEqual([]);
  });

  it("probes an account another process's breaker marked down, and forgets one staff marked up (it trips again afresh)", async () => {
    const { breaker, store, operator, fail, advance } = setup(3);
    store.reasons.set('CI:MTN', 'automatic: 3 consecutive unreachable answers');
    await breaker.tick();
    expect(breaker.isOpen(CI_MTN)).toBe(true);
    expect(operator.state.statusCalls).toBe(1);

    // Staff mark it up while it is still unreachable: the next tick forgets the open state...
    store.reasons.set('CI:MTN', null);
    advance(30_000);
    await breaker.tick();
    expect(breaker.isOpen(CI_MTN)).toBe(false);
    // ...so it is marked down again after a new run of unreachable answers.
    await fail(3);
    expect(store.reasons.get('CI:MTN')).toBe('automatic: 3 consecutive unreachable answers');
  });

  it('threshold 0: off, the adapter is returned as it is', async () => {
    const { breaker, store, operator, fail } = setup(0);
    expect(breaker.wrap(operator.adapter, CI_MTN)).toBe(operator.adapter);
    await fail(50);
    await breaker.tick();
    expect(store.writes).toEqual([]);
  });

  it('a store that fails is reported, never thrown at the caller; the count starts again once the row is read up', async () => {
    const errors: string[] = [];
    let now = 0;
    const store = memoryStore();
    const failing: BreakerStore = {
      ...store,
      markDown: async () => {
        throw new Error('database down');
      },
    };
    const operator = switchable();
    const breaker = new OperatorBreaker({
      threshold: 2,
      probeIntervalMs: 1000,
      store: failing,
      now: () => now,
      probe: async () => undefined,
      onError: (_e, what, account) => errors.push(`${what} ${account}`),
    });
    const wrapped = breaker.wrap(operator.adapter, CI_MTN);
    for (let i = 0; i < 2; i++)
      await expect(wrapped.queryStatus(lookup('r'))).rejects.toBeInstanceOf(OperatorUnavailableError);
    expect(errors).toEqual(['mark down CI:MTN']);
    now += 1000;
    await breaker.tick();
    expect(breaker.isOpen(CI_MTN)).toBe(false);
  });

  it('the probe asks the status of a reference of its own, with a made-up operator id (operators asked by their id answer too)', () => {
    expect(probeLookup(CI_MTN, () => 'ABC')).toEqual({
      partnerReference: 'PBABC',
      providerSessionId: 'PBABC',
      msisdn: '+0',
      amount: 1,
      currency: 'XOF',
      countryCode: 'CI',
    });
  });
});

it('passes on every optional call and flag of the adapter it watches (a dropped submitCode would lose one-time codes)', async () => {
  const codes: string[] = [];
  const adapter: OperatorAdapter = {
    ...switchable().adapter,
    statusMayLag: true,
    submitCode: async (_p, code) => {
      codes.push(code);
    },
  };
  const breaker = new OperatorBreaker({
    threshold: 3,
    probeIntervalMs: 30_000,
    store: memoryStore(),
    registry: new Registry(),
    probe: async () => undefined,
  });
  const wrapped = breaker.wrap(adapter, CI_MTN);
  expect(wrapped.statusMayLag).toBe(true);
  await wrapped.submitCode!(lookup('r'), '482913');
  expect(codes).toEqual(['482913']);
});

it('passes on the reconciliation calls, and an operator that does not answer them counts towards the breaker like any call', async () => {
  const store = memoryStore();
  const record = {
    kind: 'CASHIN' as const,
    reference: 'r',
    operatorTxId: null,
    amount: 1,
    currency: 'XOF',
    outcome: 'PENDING' as const,
  };
  const adapter: OperatorAdapter = {
    ...switchable().adapter,
    listRecords: async () => {
      throw new OperatorUnavailableError('timed out');
    },
    recordOf: async () => record,
  };
  const breaker = new OperatorBreaker({
    threshold: 2,
    probeIntervalMs: 30_000,
    store,
    registry: new Registry(),
    probe: async () => undefined,
  });
  const wrapped = breaker.wrap(adapter, CI_MTN);
  expect(
    await wrapped.recordOf!({
      kind: 'CASHIN',
      reference: 'r',
      payment: { ...lookup('r'), providerTxId: null },
      amount: 1,
      currency: 'XOF',
    }),
  ).toEqual(record);
  for (let i = 0; i < 2; i++)
    await expect(wrapped.listRecords!('2026-11-27', null)).rejects.toBeInstanceOf(OperatorUnavailableError);
  expect(store.reasons.get('CI:MTN')).toBe('automatic: 2 consecutive unreachable answers');
});
