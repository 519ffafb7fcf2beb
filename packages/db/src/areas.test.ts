import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The package's areas and what each may import (besides the Prisma client in generated/). Each area is a
 * folder of src/ with one entry point, its index.ts, listed in package.json's exports. Code imports
 * another area only through that entry point and only along these edges, so no two areas depend on each
 * other; a test may use any area's entry point to set up what it needs.
 */
const ALLOWED: Record<string, string[]> = {
  database: [],
  ledger: ['database'],
  outbox: ['database'],
  staff: ['database'],
  'merchant-users': ['database', 'staff'],
  merchants: ['database'],
  webhooks: ['database', 'outbox'],
  reconciliation: ['database', 'ledger'],
  'operator-accounts': ['database', 'staff'],
  payments: ['database', 'ledger', 'outbox', 'webhooks', 'reconciliation', 'staff'],
  'service-db': ['database', 'staff', 'operator-accounts', 'merchant-users'],
  'payment-links': ['database', 'staff'],
  testing: ['database'],
};
/** The areas' entry points as other packages import them: `@mm/db` is the database plumbing. */
const ENTRY = (area: string) => (area === 'database' ? '.' : `./${area}`);

const SRC = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = path.resolve(SRC, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'generated' ? [] : sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}
const files = sourceFiles(SRC).filter((f) => f !== fileURLToPath(import.meta.url));
const areaOf = (file: string): string => path.relative(SRC, file).split(path.sep)[0] ?? '';
const isTest = (file: string) => /\.test\.ts$/.test(file);

interface Import {
  from: string;
  specifier: string;
  target: string;
}
const imports: Import[] = files.flatMap((from) =>
  ts
    .preProcessFile(readFileSync(from, 'utf8'), true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({
      from,
      specifier,
      target: path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts'),
    })),
);
const crossArea = imports.filter((i) => areaOf(i.target) !== 'generated' && areaOf(i.target) !== areaOf(i.from));
const rel = (file: string) => path.relative(SRC, file);

describe('@mm/db areas', () => {
  it('has every source file inside an area the table names', () => {
    expect(files.filter((f) => !(areaOf(f) in ALLOWED)).map(rel)).toEqual([]);
    const folders = readdirSync(SRC).filter(
      (name) => name !== 'generated' && statSync(path.join(SRC, name)).isDirectory(),
    );
    expect(folders.sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('exports one entry point per area, its index.ts', () => {
    const { exports } = JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as {
      exports: Record<string, string>;
    };
    expect(exports).toEqual(
      Object.fromEntries(Object.keys(ALLOWED).map((area) => [ENTRY(area), `./src/${area}/index.ts`])),
    );
  });

  it('reaches another area only through its entry point', () => {
    const deep = crossArea.filter((i) => i.target !== path.join(SRC, areaOf(i.target), 'index.ts'));
    expect(deep.map((i) => `${rel(i.from)} imports ${i.specifier}`)).toEqual([]);
  });

  it('lets code import only the areas below it, and tests any entry point', () => {
    const against = crossArea.filter(
      (i) => !isTest(i.from) && !(ALLOWED[areaOf(i.from)] ?? []).includes(areaOf(i.target)),
    );
    expect(
      against.map((i) => `${rel(i.from)} (${areaOf(i.from)}) imports ${i.specifier} (${areaOf(i.target)})`),
    ).toEqual([]);
  });

  it('keeps an entry point to its own folder (and the generated client for the database)', () => {
    const outside = imports
      .filter((i) => path.basename(i.from) === 'index.ts' && areaOf(i.target) !== areaOf(i.from))
      .filter((i) => !(areaOf(i.from) === 'database' && areaOf(i.target) === 'generated'));
    expect(outside.map((i) => `${rel(i.from)} re-exports ${i.specifier}`)).toEqual([]);
  });

  it('has no cycle in the table itself', () => {
    const done = new Set<string>();
    const visit = (area: string, path: string[]): void => {
      if (path.includes(area)) throw new Error(`cycle: ${[...path, area].join(' -> ')}`);
      if (done.has(area)) return;
      for (const below of ALLOWED[area] ?? []) visit(below, [...path, area]);
      done.add(area);
    };
    for (const area of Object.keys(ALLOWED)) visit(area, []);
    expect(done.size).toBe(Object.keys(ALLOWED).length);
  });

  it('does not import itself by its package name', () => {
    const self = files.filter((f) => /from '@mm\/db[/']/.test(readFileSync(f, 'utf8')));
    expect(self.map(rel)).toEqual([]);
  });
});
