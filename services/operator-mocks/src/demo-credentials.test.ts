import { readFileSync } from 'node:fs';
import { demoCredentialRows, markdownRow } from './demo-credentials.js';

const README = new URL('../../../README.md', import.meta.url);
const SECTION = '## Demo numbers of the real operators (contract mocks)';
const HEADER = '| Mock | Port | Credential | Value | What it is for |';

/** The rows of the credentials table in the README's section on the contract mocks, as written. */
function readmeRows(): string[] {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(SECTION);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + SECTION.length);
  const lines = text.slice(start, end === -1 ? undefined : end).split('\n');
  const header = lines.indexOf(HEADER);
  expect(header).toBeGreaterThan(0);
  const rows: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows;
}

describe("the README's table of the mocks' demo credentials", () => {
  it('is exactly the values the mocks accept and the demo accounts are configured with, row for row', () => {
    expect(readmeRows()).toEqual(demoCredentialRows().map(markdownRow));
  });
});
