#!/usr/bin/env bash
# A private PostgreSQL cluster for the platform's PostgreSQL suites and benchmarks: initdb into
# a temporary directory, a free 127.0.0.1 port, stopped afterwards. Nothing is shared with a
# PostgreSQL the machine may already run.
#
# Usage:
#   .ci/postgres.sh start RUN_DIR      start a cluster in RUN_DIR; prints its URL (postgres://…)
#   .ci/postgres.sh stop  RUN_DIR      stop the cluster started with the same RUN_DIR
#   .ci/postgres.sh with-server CMD…   start a cluster in a fresh RUN_DIR, run CMD with
#                                      PLATFORM_TEST_POSTGRES_URL exported, stop it and delete
#                                      the directory; exits with CMD's status
#
# The server binaries come from Debian's `postgresql` package (/usr/lib/postgresql/<ver>/bin).
# When they are missing and this runs as root, the package is installed with apt-get; otherwise
# it fails saying what to install. PostgreSQL refuses to run as root, so as root the cluster
# runs as the `postgres` user (created by the package) in a directory chowned to it.
# The URL names the superuser `flow` with a password: the platform suites create one database
# per test server (CREATE DATABASE), which needs those rights.
set -euo pipefail

DB_USER="flow"
DB_PASSWORD="flow-test-password"

log() { echo "postgres.sh: $*" >&2; }

bin_dir() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [[ -n "$dir" && -x "$dir/initdb" ]]; then
    echo "$dir"
    return
  fi
  if [[ "$(id -u)" -ne 0 ]]; then
    log "the PostgreSQL server is not installed (no /usr/lib/postgresql/*/bin/initdb); install Debian's 'postgresql' package, or run as root to have it installed"
    exit 1
  fi
  log "installing the PostgreSQL server from Debian packages (apt-get install postgresql)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql) >&2 \
    || { log "apt-get install postgresql failed"; exit 1; }
  dir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  echo "$dir"
}

# Runs a server binary as the cluster's owner: `postgres` when we are root, else ourselves.
# From /: postgres may not enter the caller's directory (root's home), and says so on every call.
as_owner() {
  if [[ "$(id -u)" -eq 0 ]]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

start() {
  local run_dir="$1" bin port
  bin="$(bin_dir)"
  mkdir -p "$run_dir"
  run_dir="$(cd "$run_dir" && pwd)"
  if [[ -f "$run_dir/url" && -f "$run_dir/data/postmaster.pid" ]] && as_owner "$bin/pg_ctl" status -D "$run_dir/data" >/dev/null 2>&1; then
    log "already running for $run_dir"
    cat "$run_dir/url"
    return
  fi
  rm -rf "$run_dir/data"
  mkdir -p "$run_dir/data" "$run_dir/socket"
  printf '%s\n' "$DB_PASSWORD" >"$run_dir/pwfile"
  if [[ "$(id -u)" -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/false postgres
    chown -R postgres: "$run_dir"
    # Every directory above RUN_DIR must be enterable by postgres (mktemp makes 0700 dirs).
    chmod 755 "$run_dir"
  fi
  as_owner "$bin/initdb" -D "$run_dir/data" -U "$DB_USER" --pwfile="$run_dir/pwfile" -A scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >"$run_dir/initdb.log" 2>&1 \
    || { log "initdb failed; its log:"; cat "$run_dir/initdb.log" >&2; exit 1; }
  rm -f "$run_dir/pwfile"
  port="$(free_port)"
  # fsync off: a test cluster is thrown away, and fsync on a shared 2-core box is what costs.
  as_owner "$bin/pg_ctl" start -D "$run_dir/data" -l "$run_dir/postgres.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $run_dir/socket -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >/dev/null \
    || { log "PostgreSQL did not start; its log:"; cat "$run_dir/postgres.log" >&2; exit 1; }
  echo "postgres://$DB_USER:$DB_PASSWORD@127.0.0.1:$port/postgres" | tee "$run_dir/url"
}

stop() {
  local run_dir="$1" bin
  [[ "$run_dir" == /* ]] || run_dir="$PWD/$run_dir"
  if [[ ! -f "$run_dir/data/postmaster.pid" ]]; then
    log "nothing to stop in $run_dir"
    return
  fi
  bin="$(bin_dir)"
  as_owner "$bin/pg_ctl" stop -D "$run_dir/data" -m fast -w -t 30 >/dev/null 2>&1 \
    || as_owner "$bin/pg_ctl" stop -D "$run_dir/data" -m immediate >/dev/null 2>&1 || true
  rm -f "$run_dir/url"
}

with_server() {
  local run_dir status=0
  run_dir="$(mktemp -d "${TMPDIR:-/tmp}/flow-studio-postgres.XXXXXX")"
  # shellcheck disable=SC2064 # expand run_dir now
  trap "stop '$run_dir'; rm -rf '$run_dir'" EXIT
  PLATFORM_TEST_POSTGRES_URL="$(start "$run_dir")"
  export PLATFORM_TEST_POSTGRES_URL
  "$@" || status=$?
  return "$status"
}

cmd="${1:-}"
case "$cmd" in
  start | stop)
    [[ $# -ge 2 ]] || { echo "usage: $0 $cmd RUN_DIR" >&2; exit 2; }
    "$cmd" "$2"
    ;;
  with-server)
    shift
    [[ $# -gt 0 ]] || { echo "usage: $0 with-server CMD [ARGS…]" >&2; exit 2; }
    with_server "$@"
    ;;
  *)
    echo "usage: $0 start RUN_DIR | stop RUN_DIR | with-server CMD [ARGS…]" >&2
    exit 2
    ;;
esac
