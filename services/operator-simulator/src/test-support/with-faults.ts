import { faultsClient } from './faults-client.js';
import { SANDBOX_TOKEN, startHarness, type Harness } from './harness.js';

/**
 * Inside a describe block: one simulator harness for the block, its faults reset after each test so a
 * failed test cannot leave the next one faulted. Read `h` and `faults` inside tests (set in beforeAll).
 */
export function simulatorWithFaults(): { h: Harness; faults: ReturnType<typeof faultsClient> } {
  const ctx = {} as { h: Harness; faults: ReturnType<typeof faultsClient> };
  beforeAll(async () => {
    ctx.h = await startHarness();
    ctx.faults = faultsClient(ctx.h.sim.url, SANDBOX_TOKEN);
  });
  afterEach(async () => {
    await ctx.faults.reset();
  });
  afterAll(async () => {
    await ctx.h.close();
  });
  return ctx;
}
