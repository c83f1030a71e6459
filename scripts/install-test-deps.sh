#!/usr/bin/env bash
# Debian packages the end-to-end tests use. kubectl is on every machine of this project; the rest is installed here.
set -euo pipefail
need=()
command -v kubectl >/dev/null 2>&1 || need+=(kubectl)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
# The official Python client (22.x), driven by tests/client-python.test.ts through Debian's python3.
/usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1 || need+=(python3-kubernetes)
# Debian's ruby-kubeclient (4.9, with ruby), driven by tests/client-ruby.test.ts through /usr/bin/ruby.
/usr/bin/ruby -e 'require "kubeclient"' >/dev/null 2>&1 || need+=(ruby-kubeclient)
# Debian's etcd 3.4, for the storage contract and end-to-end tests on the etcd backend (core/storage/etcd/testing.ts).
[ -x /usr/bin/etcd ] || need+=(etcd-server)
# strace, for tests/snapshot-durability.test.ts (which files a command syncs, from its system calls) and
# tests/storage-sync-failure.test.ts (a running server's syncs made to fail with EIO).
command -v strace >/dev/null 2>&1 || need+=(strace)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then echo "install-test-deps: need ${need[*]} (run as root to install)" >&2; exit 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
