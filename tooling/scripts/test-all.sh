#!/usr/bin/env bash
# `pnpm test`: lint, build, then every test; `pnpm test:stress` runs the same with LIBOS_STRESS=1 (every
# SIGKILL point, the 10,000-edit races: the long runs the default run samples). The services some tests
# need are set up here, as CI does, and it says so first: Debian's postgresql, chromium and haproxy are installed
# with apt-get when missing and the user is root (LIBOS_TEST_INSTALL=0 installs nothing; where they
# cannot be installed, their tests skip and say why), and the PostgreSQL tests get a throwaway cluster
# that is stopped and removed whatever happens. The line above the last says how long the tests and the
# whole command took; the last line is "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/../.."
export TURBO_TELEMETRY_DISABLED=1
# The summary reporter prints how long the tests and the whole command took, above the last line.
LIBOS_TEST_STARTED="$(date +%s)"
export LIBOS_TEST_STARTED
say() { printf 'test-all: %s\n' "$*" >&2; }
if [ "${LIBOS_STRESS:-}" = 1 ]; then say "stress run: every SIGKILL point and the long races (an hour or more on 2 cores)"
else say "lint, build, then every test (about 10 minutes on a quiet 2-core machine; pnpm test:stress for the long runs)"; fi
pnpm lint
pnpm turbo run build --output-logs=errors-only
have_postgres() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }
if [ "${LIBOS_TEST_INSTALL:-1}" != 0 ]; then
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  have_postgres || missing+=(postgresql)
  [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  if [ "${#missing[@]}" -gt 0 ] && [ "$(id -u)" = 0 ]; then
    say "installing Debian's ${missing[*]} with apt-get for the browser and PostgreSQL tests (LIBOS_TEST_INSTALL=0 skips this, and those tests)"
  fi
  bash tooling/browser/install-chromium.sh || true
  bash tooling/postgres/throwaway-postgres.sh install || true
  bash tooling/haproxy/install-haproxy.sh || true
fi
if have_postgres; then exec bash tooling/postgres/throwaway-postgres.sh run pnpm exec vitest run; fi
say "no PostgreSQL here; its tests skip"
exec pnpm exec vitest run
