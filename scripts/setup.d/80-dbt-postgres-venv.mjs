// The Python virtualenv with dbt-core (pinned like the DuckDB dbt venv) and dbt-postgres, for projects
// whose warehouse is PostgreSQL (plugins/warehouse-postgres/src/dbt.ts holds the pins). Idempotent.
import { ensureVenvStep } from '../lib/venv-step.mjs';

export default ({ root }) => ensureVenvStep(root, 'plugins/warehouse-postgres/src/dbt.ts', 'postgresDbtVenv');
