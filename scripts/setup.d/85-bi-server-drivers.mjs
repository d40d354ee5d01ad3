// Superset's venv (step bi-venv) with the SQLAlchemy drivers of the server warehouses, PostgreSQL and
// Trino (scripts/lib/companion-server-venvs.ts), for the tests that start Superset on them. A project on
// a server warehouse gets its own driver from `basin bi setup` or its first start. Idempotent: pip
// installs only what is missing (seconds when Superset is already there).
import { ensureVenvStep } from '../lib/venv-step.mjs';

export default ({ root }) => ensureVenvStep(root, 'scripts/lib/companion-server-venvs.ts', 'supersetServerVenv');
