// marimo's venv (step notebooks-venv) with SQLAlchemy and the drivers of the server warehouses,
// PostgreSQL and Trino (scripts/lib/companion-server-venvs.ts), for the tests that run notebooks on
// them. A project on a server warehouse gets its own driver from `basin notebooks setup` or its first
// notebook. Idempotent: pip installs only what is missing.
import { ensureVenvStep } from '../lib/venv-step.mjs';

export default ({ root }) => ensureVenvStep(root, 'scripts/lib/companion-server-venvs.ts', 'marimoServerVenv');
