#!/usr/bin/env bash
# Debian's Chromium for the review page's browser tests, installed when it is missing (root only).
# The tests drive it with playwright-core and never download a browser of their own.
set -euo pipefail
log() { printf 'install-chromium: %s\n' "$*" >&2; }
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  log "Chromium is not installed and cannot be installed from here (needs root and apt-get); the browser tests will skip."
  log "Install it with: sudo apt-get update && sudo apt-get install -y chromium"
  exit 1
fi
log "installing Debian's chromium package"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || true
apt-get install -y -qq --no-install-recommends chromium </dev/null >&2
[ -x /usr/bin/chromium ] || { log "chromium installed, but /usr/bin/chromium is missing"; exit 1; }
