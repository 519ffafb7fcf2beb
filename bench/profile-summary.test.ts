import { groupOf, summarise } from './profile-summary.js';

describe('a CPU profile summarised by package', () => {
  it("names a dependency, a workspace package or service, and leaves Node's own frames to their caller", () => {
    expect(groupOf('file:///w/node_modules/.pnpm/pg@8.23.1/node_modules/pg/lib/query.js', 'submit')).toBe('pg');
    expect(groupOf('file:///w/node_modules/.pnpm/@prisma+client@7/node_modules/@prisma/client/runtime/x.js', 'q')).toBe(
      '@prisma/client',
    );
    expect(groupOf('file:///w/packages/db/src/ledger/ledger.ts', 'post')).toBe('@mm/db');
    expect(groupOf('file:///w/services/gateway/src/app.ts', 'x')).toBe('gateway');
    expect(groupOf('node:net', 'writev')).toBeNull();
    expect(groupOf('', '(garbage collector)')).toBe('GC');
  });

  it("charges a sample in Node's own code to the innermost caller of ours, skips idle time and the first seconds", () => {
    const frame = (id: number, url: string, functionName: string, children: number[] = []) => ({
      id,
      callFrame: { url, functionName },
      children,
    });
    const profile = {
      nodes: [
        frame(1, '', '(root)', [2, 5]),
        frame(2, 'file:///w/node_modules/pg/lib/query.js', 'submit', [3]),
        frame(3, 'node:net', 'writev', [4]),
        frame(4, 'node:internal/stream_base_commons', 'writeGeneric'),
        frame(5, '', '(idle)'),
      ],
      samples: [4, 4, 5, 2],
      timeDeltas: [1000, 2000, 5000, 3000],
    };
    expect(summarise(profile)).toEqual({ busyMs: 6, groups: new Map([['pg', 6000]]) });
    // From 2 ms on: the first sample (at 1 ms) is left out.
    expect(summarise(profile, 2000)).toEqual({ busyMs: 5, groups: new Map([['pg', 5000]]) });
  });
});
