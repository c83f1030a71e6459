#!/usr/bin/env bash
# The project's whole test suite: unit tests beside the code and end-to-end tests in tests/ that start the
# compiled binary and drive it with the real kubectl. Installs what the tests need that npm does not bring.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x node_modules/.bin/bun ] || npm ci
bash scripts/install-test-deps.sh
bash compile.sh
exec node_modules/.bin/bun test --timeout 60000 "$@"
