# syntax=docker/dockerfile:1
# merchant-portal: the merchants' own dashboard (server-rendered HTML, no client script, sessions in Redis;
# HTTP, port 3008). Public: merchants reach it from anywhere, so serve it only over TLS behind a proxy
# (SECURE_COOKIES, HSTS and TRUST_PROXY set there: infra/k8s/merchant-portal.yaml).
# Build from the repository root (the context must hold the whole workspace and its .dockerignore):
#   docker build -f infra/docker/merchant-portal.Dockerfile -t mobilemoney/merchant-portal .
# The runtime stage holds one esbuild bundle of the service, not the workspace: see infra/README.md.
ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
# Same pnpm as `packageManager` in package.json (pnpm would otherwise fetch that version itself).
ARG PNPM_VERSION=10.34.9
ENV CI=true
# Behind a TLS-intercepting proxy, its CA as an optional build secret (`--secret id=extra_ca,src=<pem>`):
# the two steps that download read it, and no layer keeps it (infra/README.md, "Building behind a proxy").
RUN --mount=type=secret,id=extra_ca,required=false \
    if [ -s /run/secrets/extra_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca; fi \
 && npm install -g pnpm@${PNPM_VERSION} && npm cache clean --force
WORKDIR /app
# Download every package of the lockfile into the store first: this layer is reused until the
# lockfile (or the root manifest) changes, whatever source file was edited.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN --mount=type=secret,id=extra_ca,required=false \
    if [ -s /run/secrets/extra_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca; fi \
 && pnpm fetch --store-dir /pnpm/store
COPY . .
# Dev dependencies are installed in this stage only: @mm/db's postinstall runs `prisma generate` (prisma
# is a devDependency of @mm/db; PRISMA_SCHEMA_ENGINE_BINARY=/bin/false is set by that script), and esbuild,
# a devDependency of the workspace root (pnpm installs the root together with the filtered projects),
# bundles the service into /out. What the bundle holds, and the few files copied beside it: bundle.mjs.
RUN pnpm install --offline --frozen-lockfile --store-dir /pnpm/store --filter "@mm/merchant-portal..." \
 && node infra/docker/bundle.mjs merchant-portal /out

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# Stack traces name the TypeScript files and lines (dist/*.mjs.map; the sources themselves are not shipped).
ENV NODE_OPTIONS=--enable-source-maps
WORKDIR /app
# Only the bundle and the files it reads at run time: no node_modules tree, no TypeScript, no dev
# dependencies, no pnpm. Files stay owned by root: the `node` user can read them, not change them.
COPY --from=build /out /app
USER node
ENV MERCHANT_PORTAL_PORT=3008
# /health, /ready and /metrics for probes and Prometheus: never publish this one.
ENV MERCHANT_PORTAL_INTERNAL_PORT=3108
EXPOSE 3008
# Services stop taking work, finish what is in flight and close their connections on SIGTERM.
STOPSIGNAL SIGTERM
# No curl in slim images: node's fetch. GET /health is liveness (process up), on the public port too;
# /ready (PostgreSQL and the two Redis connections) is on MERCHANT_PORTAL_INTERNAL_PORT only (infra/k8s).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.MERCHANT_PORTAL_PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/merchant-portal.mjs"]
