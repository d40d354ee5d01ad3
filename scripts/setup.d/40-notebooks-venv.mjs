// The Python virtualenv with the pinned marimo and duckdb for notebooks (plugins/notebooks/src/venv.ts
// holds the pins; `basin notebooks setup` and the server's first lock use the same code). Idempotent.
import { ensureVenvStep } from '../lib/venv-step.mjs';

export default ({ root }) => ensureVenvStep(root, 'plugins/notebooks/src/venv.ts', 'marimoVenv');
