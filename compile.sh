#!/usr/bin/env bash
# Builds dist/kubun: one self-contained executable (Bun runtime + kubun), nothing needed beside it.
#   --plugin PATH    bake an admission plugin into the binary (repeatable); enable it by its file name without
#                    extension: --enable-admission-plugins=<name>
#   --outfile PATH   write the binary there instead of dist/kubun
set -euo pipefail
cd "$(dirname "$0")"
outfile=dist/kubun
plugins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --plugin) plugins+=("$(realpath "${2:?--plugin needs a path}")"); shift 2 ;;
    --plugin=*) plugins+=("$(realpath "${1#--plugin=}")"); shift ;;
    --outfile) outfile="${2:?--outfile needs a path}"; shift 2 ;;
    --outfile=*) outfile="${1#--outfile=}"; shift ;;
    *) echo "compile.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ ! -d node_modules ]; then
  npm ci
fi
mkdir -p dist "$(dirname "$outfile")"
entry=main.ts
order_dir=$(mktemp -d)
trap 'rm -rf "$order_dir"; [ "$entry" = main.ts ] || rm -f "$entry"' EXIT
if [ ${#plugins[@]} -gt 0 ]; then
  # An entry module that imports each plugin literally (so the bundle holds it) and registers it before main runs.
  entry=$(mktemp dist/baked-entry.XXXXXX.ts)
  node_modules/.bin/bun scripts/baked-entry.ts "${plugins[@]}" >"$entry"
fi
# Worker modules are extra entry points: the binary starts them as Workers (core/runtime/worker.ts): the snapshot
# worker and the custom admission plugins' worker. So are the CEL engine and @peculiar/x509, loaded at first use
# (lazyEntryPoint in core/runtime/lazy-module.ts), so that their bytecode is not read at start. --bytecode stores the modules compiled, so a start does not parse
# the bundle's source again (ESM, as core/runtime/x509.ts awaits at its top level); bench/memory.bench.ts measures it.
# --compile-jit-policy keeps start-up and idle code in the interpreter while the server is not busy
# (core/runtime/jit-policy.ts): 13-14 MB less idle RSS, a third less CPU to the first /readyz.
jit_policy=$(sed -n 's/^export const START_UP_JIT_POLICY = \([0-9]*\);$/\1/p' core/runtime/jit-policy.ts)
# The binary reads no .env or bunfig.toml from the directory it is started in: they would set KUBUN_<FLAG> values
# unseen, or preload code into the server (bun build --compile loads both by default).
build() {
  node_modules/.bin/bun build --compile --bytecode --compile-jit-policy="$jit_policy" --no-compile-autoload-dotenv \
    --no-compile-autoload-bunfig --format=esm "$@" "$entry" core/storage/sqlite/snapshot-worker.ts \
    core/admission/isolation/worker.ts core/cel/_engine.ts core/runtime/_x509-entry.ts --outfile "$outfile"
}
build
# Profile-guided bytecode layout: the binary just built starts (and restarts) a server once, recording the functions a
# start and then an idle server use; built again with that profile, their bytecode sits together at the front of the
# embedded bundle, so a start reads fewer of its pages (idle RSS -4 to -5 MB, scripts/record-bytecode-order.ts).
build --bytecode-order="$(node_modules/.bin/bun scripts/record-bytecode-order.ts "$outfile" "$order_dir/order")"
