// The built install (no TypeScript loader) loads its plugins from runtime/dist/plugins.cjs: the same
// plugins with the same definitions as their ES modules, one instance of each contract, and every path
// a plugin computes from its own module (UI pages) still pointing into its dist/ folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { disableAuth, makeProject } from '@basin/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifestFile = path.join(root, 'runtime', 'dist', 'plugins.json');
const built = fs.existsSync(path.join(root, 'core', 'dist', 'index.js')) && fs.existsSync(manifestFile);
const skip = built ? false : 'needs the built packages (npm run build)';

// what each plugin declares, the contract identity, and the app's UI page files
const script = `
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { createApp, loadPlugins, prebuiltStatus } from '@basin/core';
const plugins = await loadPlugins();
const syncContract = await import('@basin/plugin-sync/contract');
const sync = plugins.find((p) => p.name === 'sync');
const summary = plugins.map((p) => ({
  name: p.name,
  permissions: (p.permissions ?? []).map((x) => x.name).sort(),
  sections: (p.configSections ?? []).map((s) => s.section),
  files: (p.configFiles ?? []).map((f) => f.id),
  dependsOn: p.dependsOn ?? [],
  optionalDependsOn: p.optionalDependsOn ?? [],
  parts: ['register', 'commands', 'prepare', 'doctor'].filter((k) => typeof p[k] === 'function'),
})).sort((a, b) => (a.name < b.name ? -1 : 1));
const app = await createApp({ projectDir: process.argv[1] });
const pages = app.pages.map((p) => ({ path: p.path, file: p.file, exists: fs.existsSync(p.file) }));
// code paths that import() a package on first use: a monitor's expression guard (DuckDB's API) and /ws (ws)
await app.warehouse.write(async (c) => {
  await c.run('CREATE SCHEMA IF NOT EXISTS raw_shop');
  await c.run("CREATE TABLE raw_shop.orders AS SELECT range AS id, DATE '2026-03-10' - CAST(range % 20 AS INTEGER) AS day FROM range(100)");
});
const monitor = await app.http.inject({ method: 'POST', url: '/api/monitoring/run' });
// the sources plugin's registry: every source package imported on first use (require() of its ES module)
const typesReply = await app.http.inject({ method: 'GET', url: '/api/sources/types' });
const sourceTypes = typesReply.statusCode === 200 ? (typesReply.json().types ?? typesReply.json()).map((t) => t.type).sort() : typesReply.statusCode;
const base = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\\/$/, '');
const WebSocket = createRequire(import.meta.url)('ws');
const ws = new WebSocket(base.replace('http', 'ws') + '/ws');
const wsOpened = await new Promise((r) => { ws.once('open', () => r(true)); ws.once('error', (e) => r(String(e))); });
ws.terminate();
await app.close();
console.log(JSON.stringify({ status: prebuiltStatus(), summary, sameContract: sync.permissions.includes(syncContract.syncPermissions.sync), pages,
  monitor: { status: monitor.statusCode, results: monitor.json().results?.map((r) => [r.monitor, r.value]) }, wsOpened, sourceTypes }));
process.exit(0);
`;

// auth off (loopback only), so /ws and the API answer without a login; one daily monitor
const project = () => {
  const dir = makeProject({ '.basin/monitors.yml': 'monitors:\n  - name: orders_per_day\n    source_table: raw_shop.orders\n    value_expression: count(*)\n    date_column: day\n' });
  disableAuth(dir);
  return dir;
};

function run(env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, project()], { cwd: path.join(root, 'core'), env: { ...process.env, NODE_OPTIONS: '', ...env }, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    status: string;
    summary: Array<{ name: string }>;
    sameContract: boolean;
    pages: Array<{ path: string; file: string; exists: boolean }>;
    monitor: { status: number; results: unknown[] };
    wsOpened: true | string;
    sourceTypes: string[] | number;
  };
}

test('the bundle holds every plugin of plugins/ (none is left as an ES module), and no absolute path', { skip }, () => {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { packages: Record<string, string>; left_as_es_modules: Array<{ name: string; reason: string }> };
  const names = fs
    .readdirSync(path.join(root, 'plugins'))
    .map((d) => JSON.parse(fs.readFileSync(path.join(root, 'plugins', d, 'package.json'), 'utf8')).name as string)
    .sort();
  const left = manifest.left_as_es_modules.map((l) => l.name);
  assert.deepEqual([...Object.keys(manifest.packages), ...left].sort(), names);
  // every built-in plugin is CommonJS-compatible today (plugins/sources no longer awaits at its top level)
  assert.deepEqual(manifest.left_as_es_modules, []);
  const code = fs.readFileSync(path.join(root, 'runtime', 'dist', 'plugins.cjs'));
  assert.ok(!code.includes(root), 'no path of this checkout in the bundle');
  assert.ok(code.every((b) => b < 0x80), 'ASCII only');
});

test('built, the plugins come from the bundle: the same definitions as the ES modules, one contract instance, UI pages in dist/, import() on first use', { skip }, () => {
  // twice: the first process may compile the bundle and write its code cache, the second runs from it
  run({});
  const bundled = run({});
  const esm = run({ BASIN_PREBUILT: '0' });
  assert.match(bundled.status, /^prebuilt plugins from .*runtime\/dist\/plugins\.cjs$/);
  assert.equal(esm.status, 'plugins as ES modules (BASIN_PREBUILT=0)');
  assert.ok(bundled.summary.length >= 20, `${bundled.summary.length} plugins`);
  assert.deepEqual(bundled.summary, esm.summary);
  // the sync plugin's permissions are the objects its contract exports to the other plugins
  assert.equal(bundled.sameContract, true);
  assert.equal(esm.sameContract, true);
  assert.ok(bundled.pages.length > 5, `${bundled.pages.length} pages`);
  assert.deepEqual(bundled.pages, esm.pages);
  // import() inside the bundle (a require() there: node:vm has no loader for it once the code cache is used)
  assert.equal(bundled.monitor.status, 200, JSON.stringify(bundled.monitor));
  assert.deepEqual(bundled.monitor, esm.monitor);
  assert.equal(bundled.wsOpened, true);
  assert.ok(Array.isArray(bundled.sourceTypes) && bundled.sourceTypes.length >= 35 && bundled.sourceTypes.includes('local_files') && bundled.sourceTypes.includes('rest_api'), JSON.stringify(bundled.sourceTypes));
  assert.deepEqual(bundled.sourceTypes, esm.sourceTypes);
  assert.equal(esm.wsOpened, true);
  for (const p of bundled.pages) {
    assert.ok(p.exists, `${p.path}: ${p.file}`);
    assert.match(p.file, /[\\/]plugins[\\/][^\\/]+[\\/](dist|ui)[\\/]/);
  }
});
