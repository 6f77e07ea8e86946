#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests: its own data directory and socket under a temp
# directory, its own free port on 127.0.0.1, fsync off, removed when stopped.
#
#   throwaway-postgres.sh run CMD [ARGS...]  start a cluster, run CMD with LIBOS_TEST_DATABASE_URL set,
#                                            stop and remove the cluster whatever happens; exits with CMD's status
#   throwaway-postgres.sh install            install Debian's postgresql when its binaries are missing (root only)
#   throwaway-postgres.sh start              start a cluster; prints LIBOS_TEST_DATABASE_URL=... and LIBOS_TEST_POSTGRES_DIR=...
#   throwaway-postgres.sh stop DIR           stop the cluster started in DIR and remove DIR
#
# Only stderr carries progress, so `run` leaves CMD's last stdout line last (CI reads it).
set -euo pipefail

log() { printf 'throwaway-postgres: %s\n' "$*" >&2; }

bin_dir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && { printf '%s\n' "$dir"; return 0; }
  done
  return 1
}

install_postgres() {
  bin_dir >/dev/null && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "PostgreSQL is not installed and cannot be installed from here (needs root and apt-get)."
    log "Install it with: sudo apt-get update && sudo apt-get install -y postgresql"
    return 1
  fi
  log "installing Debian's postgresql package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql </dev/null >&2
  bin_dir >/dev/null || { log "postgresql installed, but no initdb under /usr/lib/postgresql/*/bin"; return 1; }
}

# initdb and postgres refuse to run as root: as root, run them as the package's postgres user, from
# / (every path given them is absolute): that user cannot enter a clone in a 0700 folder, and
# PostgreSQL warned so at the top of every `pnpm test` run from one.
as_owner() {
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

free_port() {
  node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
}

start_cluster() {
  local bin base port attempt
  bin="$(bin_dir)" || { log "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); run: $0 install"; return 1; }
  base="$(mktemp -d "${TMPDIR:-/tmp}/libos-postgres.XXXXXX")"
  base="$(cd "$base" && pwd -P)" # absolute: the server runs from /
  mkdir -p "$base/data" "$base/socket"
  if [ "$(id -u)" = 0 ]; then chown -R postgres: "$base"; fi
  if ! as_owner "$bin/initdb" -D "$base/data" -U postgres -A trust -E UTF8 --locale=C -N >"$base/initdb.log" 2>&1; then
    log "initdb failed:"; cat "$base/initdb.log" >&2; rm -rf "$base"; return 1
  fi
  # The port is free when picked but could be taken before the server binds it: try a few.
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    if as_owner "$bin/pg_ctl" -D "$base/data" -l "$base/server.log" -w -t 120 -s \
      -o "-p $port -k $base/socket -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >&2; then
      printf 'LIBOS_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:%s/postgres\n' "$port"
      printf 'LIBOS_TEST_POSTGRES_DIR=%s\n' "$base"
      return 0
    fi
    log "start on port $port failed (attempt $attempt)"
  done
  tail -n 20 "$base/server.log" >&2 || true
  stop_cluster "$base"
  return 1
}

stop_cluster() {
  local base="$1" bin pid
  [ -n "$base" ] && [ -d "$base" ] || return 0
  # Refuse anything this script did not make, so a wrong argument cannot remove a real directory.
  case "$(basename "$base")" in libos-postgres.*) ;; *) log "refusing to remove $base"; return 1 ;; esac
  if [ -f "$base/data/postmaster.pid" ]; then
    bin="$(bin_dir || true)"
    # Fast shutdown closes every connection; if that does not finish, an immediate one.
    if [ -z "$bin" ] || ! as_owner "$bin/pg_ctl" -D "$base/data" -m fast -w -t 60 -s stop >&2; then
      pid="$(head -n 1 "$base/data/postmaster.pid" 2>/dev/null || true)"
      [ -n "$pid" ] && kill -QUIT "$pid" 2>/dev/null || true
    fi
  fi
  rm -rf "$base"
}

run_with_cluster() {
  local assignments status child
  [ "$#" -gt 0 ] || { log "run needs a command"; return 2; }
  install_postgres
  assignments="$(start_cluster)"
  LIBOS_TEST_DATABASE_URL="$(printf '%s\n' "$assignments" | sed -n 's/^LIBOS_TEST_DATABASE_URL=//p')"
  LIBOS_TEST_POSTGRES_DIR="$(printf '%s\n' "$assignments" | sed -n 's/^LIBOS_TEST_POSTGRES_DIR=//p')"
  export LIBOS_TEST_DATABASE_URL LIBOS_TEST_POSTGRES_DIR
  trap 'stop_cluster "$LIBOS_TEST_POSTGRES_DIR" >/dev/null 2>&1 || true' EXIT
  # The command runs in the background so a TERM or INT reaches this script at once: it is
  # passed on, and the EXIT trap still removes the cluster.
  "$@" &
  child=$!
  trap 'kill -TERM "$child" 2>/dev/null || true' TERM INT HUP
  status=0
  wait "$child" || status=$?
  # A signal interrupts the first wait; wait again for the command to finish.
  while kill -0 "$child" 2>/dev/null; do wait "$child" || status=$?; done
  return "$status"
}

case "${1:-}" in
  install) install_postgres ;;
  start) start_cluster ;;
  stop) stop_cluster "${2:-}" ;;
  run) shift; run_with_cluster "$@" ;;
  *) log "usage: $0 run CMD... | install | start | stop DIR"; exit 2 ;;
esac
