// Runs scripts/lib/ensure-venv.ts for one companion venv in a child Node with the development condition.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export function ensureVenvStep(root, modulePath, exportName) {
  const r = spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'scripts/lib/ensure-venv.ts'), modulePath, exportName], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`setting up the virtualenv of ${modulePath} failed (exit ${r.status}); see above`);
}
