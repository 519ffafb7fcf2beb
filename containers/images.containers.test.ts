/**
 * Every image of infra/docker/ as built by containers/build-images.ts: run as the non-root `node` user,
 * a HEALTHCHECK (but the one-shot), SIGTERM as the stop signal, and a runtime file system without
 * TypeScript sources, without dev dependencies and without the package manager; its size reported.
 * What they do when run (healthy, SIGTERM, exit 0) is compose-demo's and compose-production's part.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { recordFigures } from './lib/figures.js';
import { inspectImage, podman } from './lib/podman.js';
import { imageRef, ONE_SHOTS, SERVICES } from './lib/service-images.js';

/** Files of a tree, relative to it (symbolic links not followed). */
function walk(root: string, dir = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(`${rel}/`, ...walk(root, rel));
    else out.push(rel);
  }
  return out;
}

/** What bundle.mjs copies beside a service's bundle: files read at run time, no code of their own to install. */
const RUNTIME_PACKAGES: Record<string, string[]> = { gateway: ['swagger-ui-dist'], backoffice: ['@bull-board/ui'] };
/** Packages only a build or a test uses: none may be anywhere in a runtime image. */
const DEV_ONLY = [
  'typescript',
  'tsx',
  'esbuild',
  'prisma',
  '@prisma/engines',
  'jest',
  '@swc/core',
  'eslint',
  'pnpm',
  'turbo',
];

describe('the images of infra/docker/', () => {
  const sizes: Record<string, { imageMb: number; appMb: number }> = {};
  afterAll(() => recordFigures('images', { sizes }));

  for (const service of SERVICES) {
    it(`${service}: non-root, its stop signal and health check, no TypeScript, no dev dependency, no package manager`, async () => {
      const ref = imageRef(service);
      const image = await inspectImage(ref);
      expect(image.user).toBe('node');
      expect(image.stopSignal).toBe('SIGTERM');
      if (ONE_SHOTS.has(service)) expect(image.healthcheck ?? ['NONE']).toEqual(['NONE']);
      else expect(image.healthcheck?.[0]).toBe('CMD');
      expect(image.cmd).toEqual(expect.arrayContaining([`dist/${service}.mjs`]));

      const root = (await podman(['image', 'mount', ref])).trim();
      try {
        const app = walk(path.join(root, 'app'));
        expect(app.filter((f) => /\.(c|m)?tsx?$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
        // node_modules beside the bundle: only the packages of files read at run time.
        const modules = app
          .filter((f) => /^node_modules\/(@[^/]+\/)?[^/@]+\/$/.test(f))
          .map((f) => f.slice('node_modules/'.length, -1))
          .filter((f) => !f.startsWith('@') || f.includes('/'));
        expect(modules.sort()).toEqual((RUNTIME_PACKAGES[service] ?? []).sort());
        const everywhere = walk(path.join(root, 'usr/local/lib/node_modules'))
          .filter((f) => /^[^/]+\/$|^@[^/]+\/[^/]+\/$/.test(f))
          .map((f) => f.slice(0, -1));
        expect(everywhere).toEqual(['npm']);
        // At any depth: a package copied beside a bundle must not bring a build tool along either.
        for (const name of DEV_ONLY)
          expect({ name, inApp: app.some((f) => f.includes(`node_modules/${name}/`)) }).toEqual({ name, inApp: false });
        const appBytes = app
          .filter((f) => !f.endsWith('/'))
          .reduce((sum, f) => sum + statSync(path.join(root, 'app', f)).size, 0);
        sizes[service] = { imageMb: Math.round(image.size / 1e6), appMb: Math.round(appBytes / 1e5) / 10 };
      } finally {
        await podman(['image', 'unmount', ref]);
      }
    });
  }
});
