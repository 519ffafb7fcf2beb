/**
 * The project's images, built from infra/docker/*.Dockerfile (and the PgBouncer overlay's) exactly as
 * committed, with the base image argument pointing at the local base (base-images.ts). Behind this
 * machine's TLS proxy, its CA goes in as the build secret the Dockerfiles take (`extra_ca`): used by the
 * steps that download, kept by no layer.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { DEBIAN_IMAGE, NODE_IMAGE } from './base-images.js';
import { buildImage, ROOT, type BuiltImage } from './podman.js';

/** Every image a compose file or a manifest names is `localhost/mm/<name>:local` (containers/compose/*.images.yml, containers/k8s/one-host). */
export const imageRef = (name: string) => `localhost/mm/${name}:local`;

/** The services of infra/docker/, one image each. */
export const SERVICES = readdirSync(path.join(ROOT, 'infra/docker'))
  .filter((f) => f.endsWith('.Dockerfile'))
  .map((f) => f.replace(/\.Dockerfile$/, ''))
  .sort();

/** The one-shot (admin-cli: `migrate`, the seeds, the CLI) has no HEALTHCHECK and no port. */
export const ONE_SHOTS = new Set(['admin-cli']);

function caSecret(): string[] {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  return ca ? ['--secret', `id=extra_ca,src=${ca}`] : [];
}

export async function buildServiceImages(): Promise<BuiltImage[]> {
  const built: BuiltImage[] = [];
  for (const service of SERVICES) {
    built.push(
      await buildImage(service, imageRef(service), [
        '--build-arg',
        `NODE_IMAGE=${NODE_IMAGE}`,
        ...caSecret(),
        '-f',
        `infra/docker/${service}.Dockerfile`,
        '.',
      ]),
    );
  }
  built.push(
    await buildImage('pgbouncer', imageRef('pgbouncer'), [
      '--build-arg',
      `DEBIAN_IMAGE=${DEBIAN_IMAGE}`,
      '-f',
      'infra/compose/pgbouncer/Dockerfile',
      'infra/compose/pgbouncer',
    ]),
  );
  return built;
}
