#!/usr/bin/env bash
# Installs Debian's haproxy when it is missing (root only), for the fleet tests: a real round-robin
# balancer on loopback in front of several `libos serve` instances (apps/cli/test/serve-fleet.e2e.test.ts).
set -euo pipefail
log() { printf 'install-haproxy: %s\n' "$*" >&2; }
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  log "haproxy is not installed and cannot be installed from here (needs root and apt-get); the fleet tests skip."
  log "Install it with: sudo apt-get update && sudo apt-get install -y haproxy"
  exit 1
fi
log "installing Debian's haproxy package"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends haproxy </dev/null >&2
