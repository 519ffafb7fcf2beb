import { growthOf, type Point } from './growth-check.js';

const series = (values: number[]): Point[] => values.map((value, i) => ({ atMs: i * 10_000, value }));

describe('growthOf', () => {
  it('calls a series that levels off after its warm-up bounded, whatever it did while warming up', () => {
    const verdict = growthOf(series([10, 50, 90, 100, 101, 99, 100, 102, 98, 100, 101, 100, 99, 100, 101]), {
      absolute: 5,
      relative: 0.05,
    });
    expect(verdict).toMatchObject({ bounded: true });
  });

  it('calls a steady climb unbounded', () => {
    const verdict = growthOf(series(Array.from({ length: 30 }, (_, i) => 100 + i * 3)), { absolute: 5, relative: 0.1 });
    expect(verdict).toMatchObject({ bounded: false });
    expect(verdict!.growth).toBeGreaterThan(verdict!.allowed);
  });

  it("is not moved by a garbage collector's saw-tooth or one spike", () => {
    const saw = Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? 80 : 120) + (i === 27 ? 500 : 0));
    expect(growthOf(series(saw), { absolute: 5, relative: 0.05 })).toMatchObject({ bounded: true });
  });

  it('gives no verdict with too few points', () => {
    expect(growthOf(series([1, 2, 3, 4]), { absolute: 1, relative: 0 })).toBeNull();
    expect(growthOf([], { absolute: 1, relative: 0 })).toBeNull();
  });
});
