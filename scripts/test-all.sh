#!/usr/bin/env bash
# `npm test`: everything, in the order a failure is cheapest to see — lint (with the rule that
# src/core never imports vscode), type check, build, unit tests, then the host suite inside a real
# VS Code (installed on first use by test/host/install-host.sh, reused afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-output

echo "== lint"
npx eslint .
echo "== type check + compile (extension, tests, webview)"
npm run --silent compile
echo "== build (esbuild bundles, size budget)"
npm run --silent build

echo "== test tools (ripgrep for the unit tests; Chromium, Node 24 and code-server for the host suite)"
bash test/host/install-host.sh

echo "== unit tests"
# On the Node 24 the host suite runs on (closer to VS Code's own runtime than this machine's node):
# Node 20 can abort natively when a worker thread is torn down during a concurrent compile, which
# the storage tests (hundreds of database workers) hit now and then.
UNIT_NODE="${UNIT_NODE:-${VSCODE_HOST_DIR:-$HOME/.cache/vscode-host}/node_modules/.bin/node}"
[ -x "$UNIT_NODE" ] || UNIT_NODE=node
echo "unit tests on $("$UNIT_NODE" --version)"
set +e
"$UNIT_NODE" node_modules/mocha/bin/mocha.js 2>&1 | tee test-output/unit.log
unit_status=${PIPESTATUS[0]}
set -e
unit_pass=$(grep -Eo '^ +[0-9]+ passing' test-output/unit.log | grep -Eo '[0-9]+' | tail -1) || true
unit_fail=$(grep -Eo '^ +[0-9]+ failing' test-output/unit.log | grep -Eo '[0-9]+' | tail -1) || true

echo "== host tests (real VS Code extension host)"
set +e
node test/host/run-host-tests.mjs 2>&1 | tee test-output/host.log
host_status=${PIPESTATUS[0]}
set -e
echo "== host tests in Restricted Mode (workspace trust on, folder not trusted)"
set +e
node test/host/run-host-tests.mjs --trust-workspace off --e2e none --mocha out/test/host/suite/trust.test.js \
  --out test-output/host-untrusted 2>&1 | tee test-output/host-untrusted.log
untrusted_status=${PIPESTATUS[0]}
set -e
[ "$untrusted_status" -eq 0 ] || host_status=$untrusted_status
echo "== host tests in a virtual workspace (its one folder served by a FileSystemProvider)"
set +e
node test/host/run-host-tests.mjs --workspace test/host/virtual/virtual.code-workspace --e2e none --mocha out/test/host/virtual \
  --out test-output/host-virtual 2>&1 | tee test-output/host-virtual.log
virtual_status=${PIPESTATUS[0]}
set -e
[ "$virtual_status" -eq 0 ] || host_status=$virtual_status
host_line=$(grep -E '^host: [0-9]+ passed, [0-9]+ failed' test-output/host.log | tail -1) || true
untrusted_line=$(grep -E '^host: [0-9]+ passed, [0-9]+ failed' test-output/host-untrusted.log | tail -1) || true
virtual_line=$(grep -E '^host: [0-9]+ passed, [0-9]+ failed' test-output/host-virtual.log | tail -1) || true
count() { local v; v=$(echo "$1" | sed -nE "s/^host: ([0-9]+) passed, ([0-9]+) failed.*/\\$2/p"); echo "${v:-0}"; }
host_pass=$(( $(count "$host_line" 1) + $(count "$untrusted_line" 1) + $(count "$virtual_line" 1) ))
host_fail=$(( $(count "$host_line" 2) + $(count "$untrusted_line" 2) + $(count "$virtual_line" 2) ))
[ -n "$untrusted_line" ] && [ -n "$virtual_line" ] || host_line=""

passed=$(( ${unit_pass:-0} + ${host_pass:-0} ))
failed=$(( ${unit_fail:-0} + ${host_fail:-0} ))
echo "unit: ${unit_pass:-0} passed, ${unit_fail:-0} failed (exit $unit_status); host: ${host_pass:-0} passed, ${host_fail:-0} failed (exit $host_status)"
if [ "$unit_status" -ne 0 ] || [ "$host_status" -ne 0 ] || [ -z "$unit_pass" ] || [ -z "$host_line" ]; then
  [ "$failed" -gt 0 ] || failed=1
  echo "tests: $passed passed, $failed failed"
  exit 1
fi
echo "tests: $passed passed, $failed failed"
