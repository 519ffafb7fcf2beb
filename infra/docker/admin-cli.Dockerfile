# syntax=docker/dockerfile:1
# admin-cli: one-shot operations job (migrate, seed, merchant/key/subsidiary commands). No server, no port.
# Build from the repository root (the context must hold the whole workspace and its .dockerignore):
#   docker build -f infra/docker/admin-cli.Dockerfile -t mobilemoney/admin-cli .
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
RUN pnpm install --offline --frozen-lockfile --store-dir /pnpm/store --filter "@mm/admin-cli..." \
 && node --import tsx -e ""

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Choice: the installed workspace is copied as it is, dev dependencies included, because the services
# run from TypeScript source with `node --import tsx` and tsx is a root devDependency (`pnpm deploy
# --prod` or `pnpm prune --prod` would drop it). Only what `--filter @mm/admin-cli...` installed is here.
# Files stay owned by root: the `node` user can read them, not change them.
COPY --from=build /app /app
USER node
STOPSIGNAL SIGTERM
HEALTHCHECK NONE
# Default: apply pending SQL migrations, then exit. Other commands replace the arguments, e.g.
#   docker run --rm -e DATABASE_URL=... -e MASTER_KEY=... mobilemoney/admin-cli \
#     node --import tsx services/admin-cli/src/main.ts merchant:create --name Shop --json
# NODE_ENV=production (above) makes MASTER_KEY required: the dev default key is never used here.
CMD ["node", "--import", "tsx", "services/admin-cli/src/main.ts", "migrate"]
