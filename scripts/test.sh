#!/usr/bin/env bash
# The whole test suite from a fresh clone: install everything, build, typecheck, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
node scripts/setup.mjs
npx turbo run build --output-logs=errors-only
echo "[test] typecheck (strict TypeScript, whole repo)"
npx tsc --noEmit -p tsconfig.json
node scripts/run-tests.mjs "$@"
