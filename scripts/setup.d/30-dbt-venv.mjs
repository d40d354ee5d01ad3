// The Python virtualenv with the pinned dbt-core / dbt-duckdb / duckdb (plugins/transform/src/venv.ts
// holds the pins; `basin tx setup` and `basin start` use the same code). Idempotent.
import { ensureVenvStep } from '../lib/venv-step.mjs';

export default ({ root }) => ensureVenvStep(root, 'plugins/transform/src/venv.ts', 'txVenv');
