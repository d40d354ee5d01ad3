#!/usr/bin/env bash
# The whole test suite from a fresh clone: install everything, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/setup.mjs
TURBO_TELEMETRY_DISABLED=1 npx turbo run build --output-logs=errors-only
node scripts/run-tests.mjs "$@"
