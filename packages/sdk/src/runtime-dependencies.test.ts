import { readdirSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies?: object;
  peerDependencies?: object;
};

it('needs nothing at run time beyond Node: no dependencies, and its sources import only node: modules and each other', () => {
  expect(pkg.dependencies ?? {}).toEqual({});
  expect(pkg.peerDependencies ?? {}).toEqual({});
  const dir = new URL('./', import.meta.url);
  const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  expect(sources.length).toBeGreaterThan(5);
  // Static imports and re-exports (type-only ones vanish at run time), side-effect imports, import() and require().
  const specifier =
    /^(?:import|export)(?!\s+type\b)[^'"]*?from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]|\b(?:import|require)\(\s*['"]([^'"]+)['"]/gm;
  const imports = sources.flatMap((f) =>
    [...readFileSync(new URL(f, dir), 'utf8').matchAll(specifier)].map((m) => (m[1] ?? m[2] ?? m[3])!),
  );
  expect(imports.length).toBeGreaterThan(10);
  expect(imports.filter((spec) => !spec.startsWith('node:') && !spec.startsWith('./'))).toEqual([]);
});
