#!/usr/bin/env bash
# Benthos v4 (the MIT core of Redpanda Connect) as a peer in `npm run bench:http`. The binary is
# built once with Go from the module proxy and cached outside the repo, like .ci/ferretdb.sh;
# no Benthos code or binary is ever committed.
#
# Usage:
#   .ci/benthos.sh build    build or reuse the cached binary; prints its path
#
# `go install github.com/redpanda-data/benthos/v4/cmd/benthos@…` is refused by the proxy (the
# module's go.mod has replace directives), so a small module of our own imports the public
# service API plus the pure and io components and calls service.RunCLI, which is what the
# upstream cmd does.
set -euo pipefail

BENTHOS_VERSION="${BENTHOS_VERSION:-v4.60.0}"
CACHE_DIR="${BENTHOS_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/flow-studio/benthos}"
BIN="$CACHE_DIR/benthos-$BENTHOS_VERSION"

log() { echo "benthos.sh: $*" >&2; }

build() {
  if [[ -x "$BIN" ]]; then
    echo "$BIN"
    return
  fi
  command -v go >/dev/null || { log "Go is required to build Benthos (go not on PATH)"; exit 1; }
  mkdir -p "$CACHE_DIR"
  log "building Benthos $BENTHOS_VERSION into $CACHE_DIR (first run only; takes a few minutes)"
  local work
  work="$(mktemp -d "$CACHE_DIR/src.XXXXXX")"
  # Expanded now: $work is local and gone by the time the EXIT trap runs.
  trap "rm -rf '$work'" EXIT
  cat >"$work/main.go" <<'GO'
package main

import (
	"context"

	_ "github.com/redpanda-data/benthos/v4/public/components/io"
	_ "github.com/redpanda-data/benthos/v4/public/components/pure"
	"github.com/redpanda-data/benthos/v4/public/service"
)

func main() {
	service.RunCLI(context.Background())
}
GO
  (
    cd "$work"
    go mod init flow-studio-bench/benthos >/dev/null 2>&1
    go get "github.com/redpanda-data/benthos/v4/public/service@$BENTHOS_VERSION" >&2
    go mod tidy >&2
    CGO_ENABLED=0 go build -trimpath -o "$BIN.tmp" .
  )
  mv "$BIN.tmp" "$BIN"
  log "built $BIN"
  echo "$BIN"
}

case "${1:-}" in
  build) build ;;
  *)
    echo "usage: $0 build" >&2
    exit 2
    ;;
esac
