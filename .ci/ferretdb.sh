#!/usr/bin/env bash
# FerretDB v1 (SQLite handler) as a real MongoDB wire-protocol server for the
# docstore test suite. The binary is built once with Go and cached outside the
# repo, so only the first run on a machine pays for the build (a few minutes on
# 2 cores); no FerretDB code or binary is ever committed.
#
# Usage:
#   .ci/ferretdb.sh build              build or reuse the cached binary; prints its path
#   .ci/ferretdb.sh start [RUN_DIR]    start a server on a free 127.0.0.1 port; prints its URI
#   .ci/ferretdb.sh stop  [RUN_DIR]    stop the server started with the same RUN_DIR
#   .ci/ferretdb.sh with-server CMD…   start a server in a fresh RUN_DIR, run CMD with
#                                      DOCSTORE_TEST_URI exported, stop it; exits with CMD's status
#
# The server requires SCRAM authentication: the printed URI carries the test
# user and password (mongodb://flow:<password>@127.0.0.1:<port>/), which is how
# the docstore suite exercises the password-merge and wrong-credential rules.
# RUN_DIR (default ${TMPDIR:-/tmp}/flow-studio-ferretdb) holds the data, the log
# (ferretdb.log), the pid and the uri. Typical use:
#   export DOCSTORE_TEST_URI="$(bash .ci/ferretdb.sh start)"
#   npx vitest run src-main/runtime/connectors/docstore
#   bash .ci/ferretdb.sh stop
set -euo pipefail

FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.0}" # the last FerretDB v1 release
CACHE_DIR="${FERRETDB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/flow-studio/ferretdb}"
BIN="$CACHE_DIR/ferretdb-$FERRETDB_VERSION"
MODULE="github.com/FerretDB/FerretDB"
TEST_USER="flow"
TEST_PASSWORD="flow-test-password"

log() { echo "ferretdb.sh: $*" >&2; }

build() {
  if [[ -x "$BIN" ]]; then
    echo "$BIN"
    return
  fi
  command -v go >/dev/null || { log "Go is required to build FerretDB (go not on PATH)"; exit 1; }
  mkdir -p "$CACHE_DIR"
  log "building FerretDB $FERRETDB_VERSION into $CACHE_DIR (first run only; takes a few minutes)"
  # `go install …@version` builds but the binary panics at start: the release's
  # build/version/version.txt is generated, so it is missing from the module.
  # So copy the module source out of the module cache, add that file, build there.
  local dir src work
  dir="$(cd "$CACHE_DIR" && go mod download -json "$MODULE@$FERRETDB_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -n "$dir" && -d "$dir" ]] || { log "go mod download did not return a source directory for $MODULE@$FERRETDB_VERSION"; exit 1; }
  work="$(mktemp -d "$CACHE_DIR/src.XXXXXX")"
  src="$work/FerretDB"
  cp -r "$dir" "$src"
  chmod -R u+w "$src"
  echo "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  echo "flow-studio-ci" >"$src/build/version/package.txt"
  (cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "$BIN.tmp" ./cmd/ferretdb)
  mv "$BIN.tmp" "$BIN"
  rm -rf "$work"
  log "built $BIN"
  echo "$BIN"
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

start() {
  local run_dir="$1" bin port
  bin="$(build)"
  if [[ -f "$run_dir/pid" ]] && kill -0 "$(cat "$run_dir/pid")" 2>/dev/null; then
    log "already running (pid $(cat "$run_dir/pid")) for $run_dir"
    cat "$run_dir/uri"
    return
  fi
  rm -rf "$run_dir/data" "$run_dir/state"
  mkdir -p "$run_dir/data" "$run_dir/state"
  port="$(free_port)"
  # setsid + nohup: the server must outlive this script and not hold the
  # caller's stdout open (a $(…) capture would otherwise never finish).
  setsid nohup "$bin" \
    --handler=sqlite --sqlite-url="file:$run_dir/data/" \
    --listen-addr="127.0.0.1:$port" --debug-addr=- \
    --telemetry=disable --state-dir="$run_dir/state" \
    --test-enable-new-auth --setup-database=admin \
    --setup-username="$TEST_USER" --setup-password="$TEST_PASSWORD" \
    --log-level=error \
    >"$run_dir/ferretdb.log" 2>&1 </dev/null &
  echo $! >"$run_dir/pid"
  local i
  for ((i = 0; i < 100; i++)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "mongodb://$TEST_USER:$TEST_PASSWORD@127.0.0.1:$port/" | tee "$run_dir/uri"
      return
    fi
    if ! kill -0 "$(cat "$run_dir/pid")" 2>/dev/null; then
      log "FerretDB exited at startup; its log:"
      cat "$run_dir/ferretdb.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  log "FerretDB did not accept connections on 127.0.0.1:$port within 10s; its log:"
  cat "$run_dir/ferretdb.log" >&2
  stop "$run_dir"
  exit 1
}

stop() {
  local run_dir="$1" pid i
  [[ -f "$run_dir/pid" ]] || { log "nothing to stop in $run_dir"; return; }
  pid="$(cat "$run_dir/pid")"
  if kill "$pid" 2>/dev/null; then
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$run_dir/pid" "$run_dir/uri"
}

with_server() {
  local run_dir status=0
  run_dir="$(mktemp -d "${TMPDIR:-/tmp}/flow-studio-ferretdb.XXXXXX")"
  # shellcheck disable=SC2064 # expand run_dir now
  trap "stop '$run_dir'; rm -rf '$run_dir'" EXIT
  DOCSTORE_TEST_URI="$(start "$run_dir")"
  export DOCSTORE_TEST_URI
  "$@" || status=$?
  return "$status"
}

cmd="${1:-}"
case "$cmd" in
  build) build ;;
  start) start "${2:-${TMPDIR:-/tmp}/flow-studio-ferretdb}" ;;
  stop) stop "${2:-${TMPDIR:-/tmp}/flow-studio-ferretdb}" ;;
  with-server)
    shift
    [[ $# -gt 0 ]] || { echo "usage: $0 with-server CMD [ARGS…]" >&2; exit 2; }
    with_server "$@"
    ;;
  *)
    echo "usage: $0 build | start [RUN_DIR] | stop [RUN_DIR] | with-server CMD [ARGS…]" >&2
    exit 2
    ;;
esac
