// The Python virtualenv with the pinned dbt-core / dbt-duckdb / duckdb (plugins/transform/src/venv.ts
// holds the pins and the logic; `basin tx setup` and `basin start` use the same code). Idempotent.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export default async ({ root }) => {
  const { tsImport } = await import('tsx/esm/api');
  const venv = await tsImport(pathToFileURL(path.join(root, 'plugins/transform/src/venv.ts')).href, import.meta.url);
  const { dir } = venv.locateVenv(undefined);
  try {
    const { changed } = await venv.ensureVenv(dir, (line) => console.log(`[dbt-venv] ${line}`));
    console.log(`[setup] dbt virtualenv ${changed ? 'installed' : 'up to date'} at ${dir}`);
  } catch (e) {
    console.error(`[setup] ${e.message}`);
    process.exitCode = 1;
    throw e;
  }
};
