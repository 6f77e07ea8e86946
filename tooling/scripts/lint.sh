#!/usr/bin/env bash
# `pnpm lint`: biome over the repository. `biome ci` colours its output even into a pipe or a log (an
# escape around every character there), so colours only when stdout is a terminal. A warning fails
# the lint as an error does: a clean clone prints none, and none can pile up unnoticed.
set -uo pipefail
cd "$(dirname "$0")/../.."
colors=()
[ -t 1 ] || colors=(--colors=off)
if ! pnpm exec biome ci "${colors[@]}" --error-on-warnings .; then
  echo 'libos: run pnpm format to fix formatting, then see the lint messages above' >&2
  exit 1
fi
