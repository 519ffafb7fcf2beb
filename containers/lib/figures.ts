import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './podman.js';

const FILE = path.join(ROOT, 'containers/.report/figures.json');

/** Adds a suite's measurements to containers/.report/figures.json (what infra/README.md quotes) and prints them. */
export function recordFigures(suite: string, figures: Record<string, unknown>): void {
  mkdirSync(path.dirname(FILE), { recursive: true });
  const all = existsSync(FILE)
    ? (JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, Record<string, unknown>>)
    : {};
  all[suite] = { ...all[suite], ...figures };
  writeFileSync(FILE, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`[${suite}] ${JSON.stringify(figures)}`);
}
