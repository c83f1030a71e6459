#!/usr/bin/env bash
# Static checks of the tree: Deno's formatter and linter (settings in deno.json), the TypeScript checker as Bun
# sees the code (tsconfig.json) and as Deno sees the code that runs under it (everything but the Bun-only tests
# and benchmarks).
set -euo pipefail
cd "$(dirname "$0")/.."
deno=node_modules/.bin/deno
"$deno" fmt --check
"$deno" lint
node_modules/.bin/tsc --noEmit -p .
git ls-files '*.ts' | grep -v -E '(\.test\.ts$|^tests/|^bench/)' | xargs "$deno" check --quiet
