#!/usr/bin/env bash
# One command from a fresh clone: install everything, build, make the demo data, load it, run dbt,
# and start Basin on the demo project (Superset starts beside it and provisions the demo dashboard from
# examples/demo/dashboards/). Prints the URL (and the first-admin setup link on first run).
set -euo pipefail
cd "$(dirname "$0")/.."
# only what running needs: Chromium, PostgreSQL, MariaDB, Dovecot, Kafka, FerretDB, moto, schemathesis, sshd, Trino, the
# dbt-postgres venv and the companions' server-warehouse drivers are for the tests
node scripts/setup.mjs --skip=chromium,postgresql,mariadb,dovecot,moto,schemathesis-venv,sshd,kafka,ferretdb,dbt-postgres-venv,trino,bi-server-drivers,notebooks-server-drivers
TURBO_TELEMETRY_DISABLED=1 npx turbo run build --output-logs=errors-only
DEMO=examples/demo
if [ ! -d "$DEMO/data/uploads/orders" ]; then node "$DEMO/generate-data.mjs"; fi
basin() { ./bin/basin.mjs "$@"; }
# `basin sync` runs dbt itself after loading (platform.auto_tx), so the marts exist before Basin starts
echo "[demo] loading the sample data and building the dbt models"
basin sync --project "$DEMO" || echo "[demo] sync or dbt failed; the server still starts so you can look at it (basin tx run --project $DEMO retries dbt)"
exec ./bin/basin.mjs start --project "$DEMO" --port "${PORT:-8800}"
