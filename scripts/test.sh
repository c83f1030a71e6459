#!/usr/bin/env bash
# The project's whole test suite: the format, lint and type checks, unit tests beside the code, end-to-end tests
# in tests/ that start the compiled binary and drive it with the real kubectl, and representative parts of the
# end-to-end tests again with the source running under Deno and with the server storing in etcd. Installs what the
# tests need that npm does not bring, and ends with the plain "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x node_modules/.bin/bun ] || npm ci
bash scripts/install-test-deps.sh
bash scripts/check.sh
bash compile.sh

# End-to-end tests run again with the server under Deno: the listener and client certificates, SQLite through
# node:sqlite, authentication and authorization, admission plugins and authenticators loaded by path, watch,
# apply, CRDs and their CEL rules (@bufbuild/cel), controllers, kill -9 durability, encryption at rest through KMS
# plugins (gRPC and modules), connection bounds with Go's 431 and 400 answers, snapshots (scheduled ones too), and
# the data directory's lock, which a server keeps through its scheduled snapshots, and Leases stored deflated
# (node:zlib's dictionary option differs between the runtimes; stored-value.ts avoids it), and request bodies answered
# before they were read (Go's 256 KiB drain, then Connection: close).
deno_e2e=(
  tests/kubectl-crud.test.ts tests/kubectl-watch.test.ts tests/kubectl-apply.test.ts tests/kubectl-patch.test.ts
  tests/crd.test.ts tests/crd-validation-rules.test.ts tests/http-watch.test.ts tests/http-writes.test.ts tests/durability.test.ts
  tests/authn-token-file.test.ts tests/authn-service-account.test.ts tests/authn-custom-plugin.test.ts
  tests/authz-rbac.test.ts tests/authz-custom.test.ts tests/admission-custom.test.ts tests/admission-webhook.test.ts
  tests/workloads-deployment.test.ts tests/encryption-kms.test.ts tests/http-connection-limits.test.ts tests/snapshot.test.ts
  tests/data-dir-exclusive.test.ts
  tests/storage-lease-deflate.test.ts tests/http-unread-body.test.ts
)

# End-to-end tests again with the server storing in etcd (Debian's etcd-server, one per test process, a prefix per
# server): kubectl CRUD, watch, writes and conflicts, apply, a Deployment rollout, list paging with continue tokens
# and 410 once compacted.
etcd_e2e=(
  tests/kubectl-crud.test.ts tests/kubectl-watch.test.ts tests/http-writes.test.ts tests/kubectl-apply.test.ts
  tests/workloads-deployment.test.ts tests/http-resource-version.test.ts tests/kubectl-list.test.ts tests/http-watch.test.ts
  tests/http-expiry.test.ts tests/controllers-services.test.ts tests/crd.test.ts tests/protobuf-pointer-zeros.test.ts
)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
node_modules/.bin/bun test --timeout 60000 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ $# -eq 0 ]; then
  echo "== end-to-end tests with the server under Deno"
  KUBUN_TEST_RUNTIME=deno node_modules/.bin/bun test --timeout 60000 "${deno_e2e[@]}" 2>&1 | tee -a "$log"
  deno_status=${PIPESTATUS[0]}
  [ "$status" -ne 0 ] || status=$deno_status
  echo "== end-to-end tests with the server storing in etcd"
  KUBUN_TEST_STORAGE=etcd node_modules/.bin/bun test --timeout 60000 "${etcd_e2e[@]}" 2>&1 | tee -a "$log"
  etcd_status=${PIPESTATUS[0]}
  [ "$status" -ne 0 ] || status=$etcd_status
fi
set -e
# The failed tests' names again, next to the totals, so the end of the output says which ones failed.
grep -E "^\(fail\) " "$log" || true
sum() { grep -E "^ *[0-9]+ $1$" "$log" | awk '{ total += $1 } END { print total + 0 }'; }
echo "$(sum pass) passed, $(sum fail) failed"
exit "$status"
