#!/usr/bin/env bash
# The whole test suite from a fresh clone: install everything, build, typecheck, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
node scripts/setup.mjs
npx turbo run build --output-logs=errors-only
echo "[test] set up and built at ${SECONDS} s; typecheck (strict TypeScript, whole repo)"
npx tsc --noEmit -p tsconfig.json
echo "[test] typechecked at ${SECONDS} s"
node scripts/run-tests.mjs "$@"
echo "[test] whole run: ${SECONDS} s"
