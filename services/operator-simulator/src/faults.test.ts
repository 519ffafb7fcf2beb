import { NO_FAULTS_BODY } from './test-support/faults-client.js';
import { simulatorWithFaults } from './test-support/with-faults.js';

describe('GET | PUT | DELETE /sandbox/faults', () => {
  const ctx = simulatorWithFaults();

  it('start with every fault off', async () => {
    await expect(ctx.faults.get()).resolves.toEqual(NO_FAULTS_BODY);
  });

  it('PUT applies a partial change, keeps the other settings, and answers the full settings', async () => {
    await expect(ctx.faults.set({ latency_ms: 20, callbacks: 'repeat' })).resolves.toEqual({
      ...NO_FAULTS_BODY,
      latency_ms: 20,
      callbacks: 'repeat',
    });
    const both = { ...NO_FAULTS_BODY, latency_ms: 20, callbacks: 'repeat', callback_repeat: 2 };
    await expect(ctx.faults.set({ callback_repeat: 2 })).resolves.toEqual(both);
    await expect(ctx.faults.get()).resolves.toEqual(both);
  });

  it.each([
    ['an unknown key', '{"latency":100}'],
    ['a negative latency', '{"latency_ms":-1}'],
    ['a latency given as a string', '{"latency_ms":"100"}'],
    ['a fractional latency', '{"latency_ms":1.5}'],
    ['a boolean given as a string', '{"fail_with_5xx":"true"}'],
    ['an unknown callback mode', '{"callbacks":"sometimes"}'],
    ['zero repeats', '{"callback_repeat":0}'],
    ['a negative spread', '{"callback_spread_ms":-10}'],
    ['a valid key beside an invalid one', '{"unreachable":true,"callbacks":"late"}'],
    ['an array', '[]'],
    ['a body that is not JSON', '{"latency_ms":'],
  ])('PUT answers 400 invalid_request to %s and changes nothing', async (_what, body) => {
    const before = await ctx.faults.set({ callbacks: 'drop', callback_repeat: 3 });
    const res = await ctx.faults.putRaw(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_request', message: expect.any(String) });
    await expect(ctx.faults.get()).resolves.toEqual(before);
  });

  it('DELETE turns every fault off and answers the settings', async () => {
    await ctx.faults.set({
      latency_ms: 5,
      fail_with_5xx: true,
      unreachable: true,
      callbacks: 'out-of-order',
      callback_repeat: 9,
      callback_spread_ms: 1,
    });
    await expect(ctx.faults.reset()).resolves.toEqual(NO_FAULTS_BODY);
    await expect(ctx.faults.get()).resolves.toEqual(NO_FAULTS_BODY);
  });
});
