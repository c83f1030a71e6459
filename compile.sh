#!/usr/bin/env bash
# Builds dist/kubun: one self-contained executable (Bun runtime + kubun), nothing needed beside it.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d node_modules ]; then
  npm ci
fi
mkdir -p dist
# Worker entry points are extra entry points of the build (core/runtime/worker-entry.ts finds them).
node_modules/.bin/bun build --compile main.ts core/admission/isolation/worker.ts --outfile dist/kubun
