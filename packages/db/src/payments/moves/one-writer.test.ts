import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'generated' ? [] : sources(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}
const writing = (pattern: RegExp) =>
  sources(SRC)
    .filter((f) => pattern.test(readFileSync(f, 'utf8')))
    .map((f) => path.relative(SRC, f))
    .sort();

/** packages/db/README.md, "Moving a payment": the moves live in payments/moves/ and nowhere else. */
describe("one writer of a payment's state", () => {
  it('writes the history row in one place', () => {
    expect(writing(/INSERT INTO transaction_events/)).toEqual(['payments/moves/change-rows.ts']);
  });

  it('updates a payment row only in the moves, and where a column that is no status changes', () => {
    expect(writing(/UPDATE transactions\b|\.transaction\.update(Many)?\(/)).toEqual([
      'payments/moves/move-now.ts', // the status, by moveNow
      'payments/moves/plan-move.ts', // the status, by transition and moveIfUnchanged
      'payments/prepared-session.ts', // the operator's session id, while INITIATED
      'payments/refunds/complete-refund.ts', // the refunded and reserved amounts
      'payments/refunds/create-refund.ts', // the reserved amount
    ]);
  });
});
