#!/usr/bin/env bash
# The project's whole test suite: unit tests beside the code and end-to-end tests in tests/ that start the
# compiled binary and drive it with the real kubectl. Installs what the tests need that npm does not bring,
# and ends with the plain "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x node_modules/.bin/bun ] || npm ci
bash scripts/install-test-deps.sh
bash compile.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
node_modules/.bin/bun test --timeout 60000 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
passed=$(grep -E '^ *[0-9]+ pass$' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
failed=$(grep -E '^ *[0-9]+ fail$' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
echo "${passed} passed, ${failed} failed"
exit "$status"
