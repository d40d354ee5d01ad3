// The Python virtualenv with the pinned Apache Superset, duckdb-engine and duckdb for dashboards
// (plugins/bi/src/venv.ts holds the pins; `basin bi setup` and `basin start` use the same code). Idempotent.
import { ensureVenvStep } from '../lib/venv-step.mjs';

export default ({ root }) => ensureVenvStep(root, 'plugins/bi/src/venv.ts', 'supersetVenv');
