# syntax=docker/dockerfile:1
# flow-studio for a cluster: one image runs the platform (`flow-studio platform`) or a runtime
# (`flow-studio run`). Multi-stage: compilers live only in the build stage, the final image
# holds Node, the production node_modules and the sources (run by tsx), and runs as `node`.
#
#   docker build -t flow-studio:0.1.0 .
#   docker run --rm -p 7480:7480 -e FLOW_PLATFORM_STORE=postgres://… flow-studio:0.1.0
#   docker run --rm flow-studio:0.1.0 run /flows

ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /app
# better-sqlite3 compiles against these Node headers; Electron and its builder are dev-only.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY src-main ./src-main
COPY shared ./shared
COPY tsconfig.json ./
# Tests never ship.
RUN find src-main shared -name '*.test.ts' -delete

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# Platform data (the SQLite default, key files) and runtime flows live outside /app.
RUN mkdir -p /data /flows && chown node:node /data /flows
USER node
ENV XDG_DATA_HOME=/data
EXPOSE 7480 8080
ENTRYPOINT ["node", "bin/flow-studio.js"]
CMD ["platform", "--host", "0.0.0.0", "--port", "7480", "--data-dir", "/data/platform"]
