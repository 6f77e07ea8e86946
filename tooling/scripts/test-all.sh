#!/usr/bin/env bash
# `pnpm test`: lint, build, then every test. The services some tests need are set up here, as CI
# does: Debian's postgresql and chromium are installed when missing (root and apt-get only; where
# they cannot be, their tests skip and say why), and the PostgreSQL tests get a throwaway cluster
# that is stopped and removed whatever happens. The last line is "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/../.."
export TURBO_TELEMETRY_DISABLED=1
pnpm lint
pnpm turbo run build --output-logs=errors-only
bash tooling/browser/install-chromium.sh || true
if bash tooling/postgres/throwaway-postgres.sh install; then
  exec bash tooling/postgres/throwaway-postgres.sh run pnpm exec vitest run
fi
echo "test-all: no PostgreSQL here; its tests skip" >&2
exec pnpm exec vitest run
