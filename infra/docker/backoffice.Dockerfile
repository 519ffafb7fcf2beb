# syntax=docker/dockerfile:1
# backoffice: the staff web app (server-rendered HTML, sessions in Redis; HTTP, port 3001). Internal only:
# serve it over TLS behind a proxy reachable from the staff network (VPN/SSO), never publicly.
# Build from the repository root (the context must hold the whole workspace and its .dockerignore):
#   docker build -f infra/docker/backoffice.Dockerfile -t mobilemoney/backoffice .
ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
# Same pnpm as `packageManager` in package.json (pnpm would otherwise fetch that version itself).
ARG PNPM_VERSION=10.34.9
ENV CI=true
RUN npm install -g pnpm@${PNPM_VERSION} && npm cache clean --force
WORKDIR /app
# Download every package of the lockfile into the store first: this layer is reused until the
# lockfile (or the root manifest) changes, whatever source file was edited.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch --store-dir /pnpm/store
COPY . .
# Dev dependencies are installed on purpose: @mm/db's postinstall runs `prisma generate` (prisma is a
# devDependency of @mm/db; PRISMA_SCHEMA_ENGINE_BINARY=/bin/false is set by that script) and tsx,
# which runs the TypeScript sources, is a devDependency of the workspace root. pnpm installs the
# workspace root together with the filtered projects; the last command fails the build if it did not.
RUN pnpm install --offline --frozen-lockfile --store-dir /pnpm/store --filter "@mm/backoffice..." \
 && node --import tsx -e ""

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Choice: the installed workspace is copied as it is, dev dependencies included, because the services
# run from TypeScript source with `node --import tsx` and tsx is a root devDependency (`pnpm deploy
# --prod` or `pnpm prune --prod` would drop it). Only what `--filter @mm/backoffice...` installed is here.
# Files stay owned by root: the `node` user can read them, not change them.
COPY --from=build /app /app
USER node
ENV BACKOFFICE_PORT=3001
EXPOSE 3001
# Services stop taking work, finish what is in flight and close their connections on SIGTERM.
STOPSIGNAL SIGTERM
# No curl in slim images: node's fetch. GET /health is liveness (process up); /ready also checks
# PostgreSQL and Redis (Kubernetes uses it, see infra/k8s).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.BACKOFFICE_PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "services/backoffice/src/main.ts"]
