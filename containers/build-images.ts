/**
 * `pnpm test:containers`, first step: the base images, then every image of infra/docker/ and the
 * PgBouncer overlay's, each timed and measured. The figures go to containers/.report/build.json (the
 * suites add theirs beside it) and to the terminal.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildBaseImages } from './lib/base-images.js';
import { ROOT } from './lib/podman.js';
import { buildServiceImages } from './lib/service-images.js';

const started = Date.now();
const base = await buildBaseImages();
const services = await buildServiceImages();
const report = { base, services, totalSeconds: (Date.now() - started) / 1000 };
mkdirSync(path.join(ROOT, 'containers/.report'), { recursive: true });
writeFileSync(path.join(ROOT, 'containers/.report/build.json'), `${JSON.stringify(report, null, 2)}\n`);
for (const image of [...base, ...services]) {
  console.log(
    `${image.ref.padEnd(44)} ${String(image.sizeMb).padStart(5)} MB  ${image.seconds.toFixed(1).padStart(6)} s${image.cached ? '  (cached)' : ''}`,
  );
}
console.log(`images built in ${report.totalSeconds.toFixed(0)} s`);
