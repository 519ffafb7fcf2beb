#!/usr/bin/env node
// Builds the runtime tree of one service image: its TypeScript entry point and everything it imports
// (workspace packages and npm dependencies alike) bundled by esbuild into one ESM file, plus the few
// files that code reads from disk at run time. The image's runtime stage copies OUT_DIR to /app.
//
//   node infra/docker/bundle.mjs <service> <OUT_DIR>
//
// Run from the repository root after `pnpm install` (the build stage of infra/docker/*.Dockerfile, whose
// images `pnpm test:containers` builds and runs).
//
// OUT_DIR/
//   dist/<entry>.mjs        the bundle (node dist/<entry>.mjs); one per entry of the service
//   dist/<entry>.mjs.map    source map without sources (stack traces name the .ts files: NODE_OPTIONS=--enable-source-maps)
//   prisma/migrations/      admin-cli (and backoffice, which holds admin-cli too): read by `migrate` from <bundle dir>/../prisma/migrations (packages/db/src/database/migrate.ts)
//   node_modules/@bull-board/ui/   backoffice only: the dashboard's HTML template and static files
//   node_modules/swagger-ui-dist/  gateway only: the API reference page's files (source maps left out)
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const migrations = { from: 'packages/db/prisma/migrations', to: 'prisma/migrations' };

/** What each image holds besides its own bundle. */
const SERVICES = {
  // The API reference page (/api/v1/docs) serves Swagger UI's files, found with require.resolve().
  gateway: { packages: [['swagger-ui-dist']] },
  'operator-bridge': {},
  'expiry-worker': {},
  'refund-worker': {},
  'webhook-dispatcher': {},
  'operator-simulator': {},
  'webhook-inbox': {},
  'admin-cli': { files: [migrations] },
  // admin-cli rides along so that staff:create can run inside a backoffice pod (infra/README.md), and the
  // Bull dashboard serves files of @bull-board/ui that @bull-board/api finds with require.resolve().
  backoffice: { alsoBundle: ['admin-cli'], files: [migrations], packages: [['@bull-board/api', '@bull-board/ui']] },
  // Its CSS and pages are in the code (no static files, no client script): the bundle is the whole image.
  'merchant-portal': {},
};

// Not bundled, and not shipped: optional native add-ons that their users load inside try/catch and
// replace with JavaScript when missing (pg's `native` getter; msgpackr, used by bullmq, finds its
// optional msgpackr-extract through a createRequire of its own, which esbuild leaves alone anyway).
const EXTERNAL = ['pg-native', 'msgpackr-extract'];

// CommonJS code inside an ESM bundle still calls require() for node's built-ins (and @bull-board/api
// calls require.resolve through eval): give the module scope a real `require`. __dirname and
// __filename are left undefined on purpose: code that locates files next to its own source would find
// the bundle's directory instead and fail later in a confusing way; a ReferenceError at once is better
// (none of the services' code paths use them: checked by `pnpm test:containers` running every service).
const BANNER =
  "import { createRequire as __mmCreateRequire } from 'node:module';\nconst require = __mmCreateRequire(import.meta.url);";

const [service, outArg] = process.argv.slice(2);
const spec = SERVICES[service];
if (!spec || !outArg) {
  console.error(`usage: node infra/docker/bundle.mjs <${Object.keys(SERVICES).join('|')}> <OUT_DIR>`);
  process.exit(2);
}
const out = path.resolve(outArg);
rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'dist'), { recursive: true });

for (const entry of [service, ...(spec.alsoBundle ?? [])]) {
  const outfile = path.join(out, 'dist', `${entry}.mjs`);
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [`services/${entry}/src/main.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Every service's tsconfig extends tsconfig.base.json; its options apply to the workspace packages too.
    tsconfig: `services/${entry}/tsconfig.json`,
    external: EXTERNAL,
    banner: { js: BANNER },
    // Readable bundle, original function and class names (error names, logs); NODE_ENV stays a run-time value.
    minify: false,
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    // @bull-board/api's eval of require.resolve: known and intended (see BANNER).
    logOverride: { 'direct-eval': 'silent' },
  });
  if (result.errors.length) process.exit(1);
  console.log(`${path.relative(ROOT, outfile) || outfile}: ${(statSync(outfile).size / 1e6).toFixed(1)} MB`);
}

for (const { from, to } of spec.files ?? []) {
  cpSync(path.join(ROOT, from), path.join(out, to), { recursive: true });
}

// Packages whose files are read at run time (not code: prebuilt browser files and templates), found the
// way node finds them, each from the previous one's directory, and copied to OUT_DIR/node_modules where
// the bundle's require.resolve() finds them. Only packages the code never imports belong here: their
// own dependencies are not copied.
// A chain whose first package the service does not depend on is skipped: its code cannot need it.
const dependencies =
  JSON.parse(readFileSync(path.join(ROOT, 'services', service, 'package.json'), 'utf8')).dependencies ?? {};
for (const chain of spec.packages ?? []) {
  if (!(chain[0] in dependencies)) continue;
  let dir = path.join(ROOT, 'services', service);
  for (const name of chain) dir = packageDir(dir, name);
  const to = path.join(out, 'node_modules', chain[chain.length - 1]);
  // Source maps of prebuilt browser files are not served: left out.
  cpSync(dir, to, { recursive: true, dereference: true, filter: (src) => !src.endsWith('.map') });
  console.log(`${path.relative(out, to)}: copied beside the bundle`);
}

/** node's node_modules lookup from a directory (not require.resolve: "exports" may hide package.json). */
function packageDir(from, name) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dir === path.dirname(dir)) throw new Error(`${name} not found from ${from}`);
  }
}

// Marks the tree as ESM for anything that looks (node resolves dist/*.mjs as ESM regardless).
writeFileSync(
  path.join(out, 'package.json'),
  `${JSON.stringify({ name: `@mm/${service}-image`, private: true, type: 'module' }, null, 2)}\n`,
);
