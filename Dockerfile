# syntax=docker/dockerfile:1
#
# Grapevine: one Bun process serving the /api and the prebuilt web app, all state under /data.
#
#   docker build -t grapevine:latest .
#   docker run -d -p 3000:3000 -v grapevine-data:/data --name grapevine grapevine:latest
#   (or: docker compose up -d --build)
#
# Why the stages are split this way
# - The project's lockfile is npm's package-lock.json, so dependencies are installed with `npm ci`
#   in an official Node image: that installs exactly the locked versions, the same way a developer
#   does (`npm ci && npm start`). `bun install` would have to migrate package-lock.json into a new
#   bun.lock on every build, which is a second resolver and not byte-for-byte reproducible.
# - `--ignore-scripts`: no production dependency has an install script (all pure JS, so
#   node_modules built here runs unchanged on the Bun image). In the full install the only scripts
#   are bun's own postinstall (which links the npm copy of the bun binary; we use the image's bun
#   instead) and esbuild's (used only by drizzle-kit, not by the web build).
# - The web bundle is built by the same pinned Bun that runs the server, from the official Bun image
#   (its x64 binary is the "baseline" build, so it also works on older home-server CPUs without
#   AVX2, where the npm copy of bun would crash).
# - The runtime stage gets only production node_modules, the server source, migrations, the built
#   dist/ and package.json. Files stay owned by root (read-only for the app); the app runs as the
#   image's unprivileged `bun` user (uid 1000) and writes only to /data.
#
# Keep BUN_VERSION equal to the `bun` devDependency in package-lock.json.
ARG BUN_VERSION=1.4.5
ARG NODE_VERSION=24

# ---- all dependencies (for the web build), exactly as locked ----------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts --no-audit --no-fund

# ---- production dependencies only (for the runtime image) -------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# ---- web and server bundles: dist/, dist-server/ ------------------------------------------------------------------------
FROM oven/bun:${BUN_VERSION}-slim AS build
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# `bun run build` runs package.json's "build" script (scripts/build-web.ts). The npm copy of bun is
# not linked (--ignore-scripts), so drop its stub from node_modules/.bin: `bun` then resolves to
# the image's binary. The test fails the build early if the bundle has no index.html.
RUN rm -f node_modules/.bin/bun node_modules/.bin/bunx \
    && bun run build \
    && test -f dist/index.html \
    && test -f dist-server/main.js

# ---- runtime ------------------------------------------------------------------------------------
FROM oven/bun:${BUN_VERSION}-slim AS runtime
WORKDIR /app

# DATA_DIR holds everything the app writes: app.db (SQLite), logs/, media/, the secret key.
# Every other setting (PORT, HOST, LOG_LEVEL, ...) keeps its default unless given at run time;
# see .env.example.
ENV DATA_DIR=/data

COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY migrations ./migrations
COPY src ./src
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server

# Create the volume's mount point owned by `bun` before declaring the VOLUME, so a new named
# volume starts out writable by the app.
RUN mkdir -p /data && chown bun:bun /data

USER bun
VOLUME /data
EXPOSE 3000
STOPSIGNAL SIGTERM

# No curl in the image: Bun itself asks the health endpoint (200 when the database answers, the
# data folder can be written and free space is above DISK_FREE_MIN_MB; docker-compose.yml repeats it).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["bun", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]

# The same start the tests exercise (npm start minus the build: dist/ is prebuilt above). The
# image's entrypoint execs it, so bun is PID 1 and receives SIGTERM directly; src/boot.ts handles it
# (stop accepting, finish in-flight requests, close the database, exit 0).
CMD ["bun", "dist-server/main.js"]
