# syntax=docker/dockerfile:1
# flow-studio for a cluster: one image runs the platform (`flow-studio platform`) or a runtime
# (`flow-studio run`). Multi-stage: the build stage installs everything, builds the JavaScript
# that ships (`npm run build`: dist-electron/, with source maps) and then keeps only the production
# packages; the final image holds Node, those packages and the build — no sources, no TypeScript
# loader — and runs as `node`.
#
#   docker build -t flow-studio:0.1.0 .
#   docker run --rm -p 7480:7480 -e FLOW_PLATFORM_STORE=postgres://… flow-studio:0.1.0
#   docker run --rm flow-studio:0.1.0 run /flows

ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /app
# better-sqlite3 compiles against these Node headers; Electron's binary and Playwright's browsers are never needed here.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The CEL fork is a file: dependency; it is bundled into the build like the other pure-JS packages.
COPY src-main/runtime/core/cel-js-fork ./src-main/runtime/core/cel-js-fork
RUN npm ci --no-audit --no-fund
COPY bin ./bin
COPY src-main ./src-main
COPY shared ./shared
COPY tsconfig.json ./
RUN npm run build
# Only the production packages go on: the ones the build keeps external (better-sqlite3, optional peers).
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist-electron ./dist-electron
COPY --from=build --chown=root:root /app/bin/flow-studio.js /app/bin/fetch-snapshot.js ./bin/
# Read at run time beside the build (the platform's discovery document, the schemas).
COPY --from=build --chown=root:root /app/shared/*.json ./shared/
# Platform data (the SQLite default, key files) and runtime flows live outside /app.
RUN mkdir -p /data /flows && chown node:node /data /flows
# V8's compiled code of the two commands a container starts, kept in the image (Node 22's compile
# cache): a new container reads it instead of parsing and compiling the build on its first start.
# `--help` loads each command's modules and exits; validating a definition with a cron schedule
# loads the components a runtime loads on first use (and croner); the folder stays read-only to
# the node user.
ENV NODE_COMPILE_CACHE=/app/.compile-cache
RUN node bin/flow-studio.js run --help >/dev/null && node bin/flow-studio.js platform --help >/dev/null \
 && printf 'flows:\n  warm:\n    source: {type: schedule, cron: "0 * * * *"}\n    steps: []\n' >/tmp/warm.yaml \
 && node bin/flow-studio.js validate /tmp/warm.yaml >/dev/null && rm /tmp/warm.yaml
USER node
ENV XDG_DATA_HOME=/data
EXPOSE 7480 8080
ENTRYPOINT ["node", "bin/flow-studio.js"]
CMD ["platform", "--host", "0.0.0.0", "--port", "7480", "--data-dir", "/data/platform"]
